// SPDX-License-Identifier: Apache-2.0
// Output files written under a temporary name beside their own and renamed into place when
// complete, so a run killed mid-way leaves no half-written file that looks whole: only a
// `NAME.partial` (docs/observability.md "Outputs").
#pragma once

#include <filesystem>
#include <fstream>
#include <string>

namespace irr::sim {

class OutputFile {
 public:
  // Opens `path`.partial; `what` names the file in errors ("the VCD file").
  OutputFile(std::string path, std::string what);
  // Not committed (an error on the way): the partial file is removed.
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  std::ofstream& stream() { return out_; }
  const std::string& path() const { return path_; }
  std::string partial_path() const { return path_ + ".partial"; }
  // Closes the file and renames it to its own name; throws if any write failed.
  void commit();

 private:
  std::string path_, what_;
  std::ofstream out_;
  bool committed_ = false;
};

// std::filesystem::exists without its exception: a path the system rejects (a name too long, say)
// is not there either, so a user's bad path is an ordinary "no such file" error.
bool file_exists(const std::filesystem::path& p);

// The whole text at once, the same way.
void write_file(const std::string& path, const std::string& text, const std::string& what = "output file");
// The same, making the folders on the path first (a report asked for at a path of the user's).
void write_report(const std::string& path, const std::string& text, const std::string& what);

}  // namespace irr::sim
