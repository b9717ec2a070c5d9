// SPDX-License-Identifier: Apache-2.0
#include "sim/output_file.h"

#include <cstdio>
#include <cstring>

#include "sim/error.h"

namespace irr::sim {

bool file_exists(const std::filesystem::path& p) {
  std::error_code ec;
  return std::filesystem::exists(p, ec);
}

OutputFile::OutputFile(std::string path, std::string what)
    : path_(std::move(path)), what_(std::move(what)), out_(partial_path()) {
  if (!out_) throw Error({path_, 0, 0}, "cannot write the " + what_, Error::Kind::usage);
}

OutputFile::~OutputFile() {
  if (committed_) return;
  out_.close();
  std::remove(partial_path().c_str());
}

void OutputFile::commit() {
  out_.close();
  if (!out_) throw Error({path_, 0, 0}, "error writing the " + what_, Error::Kind::usage);
  if (std::rename(partial_path().c_str(), path_.c_str()) != 0)
    throw Error({path_, 0, 0}, "cannot rename the " + what_ + " into place: " + std::strerror(errno), Error::Kind::usage);
  committed_ = true;
}

void write_file(const std::string& path, const std::string& text, const std::string& what) {
  OutputFile f(path, what);
  f.stream() << text;
  f.commit();
}

void write_report(const std::string& path, const std::string& text, const std::string& what) {
  std::error_code ec;  // a folder that cannot be made: the write names the path
  if (const auto folder = std::filesystem::path(path).parent_path(); !folder.empty()) std::filesystem::create_directories(folder, ec);
  write_file(path, text, what);
}

}  // namespace irr::sim
