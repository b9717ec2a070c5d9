// SPDX-License-Identifier: Apache-2.0
// `irrgpu exec -- PROGRAM ARGS...`: an unmodified CUDA application on the simulated GPU. The
// program runs as a child process whose libcudart.so.13 is irrgpu's (LD_LIBRARY_PATH); every CUDA
// call comes here over a socket and runs on the functional device or the timed GPU, which the
// configuration, output folder, statistics, waveforms and traces of `irrgpu run` describe
// (docs/cuda-apps.md).
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>
#include <systemc>

#include <nlohmann/json.hpp>

#include "apps/irrgpu/commands.h"
#include "apps/irrgpu/kernel_stats.h"
#include "apps/irrgpu/timed_gpu.h"
#include "models/cudart/server.h"
#include "sim/config.h"
#include "sim/demangle.h"
#include "sim/error.h"
#include "sim/output_file.h"
#include "sim/simulation.h"

namespace irr::app {

namespace {

// Where irrgpu's libcudart.so.13 is: $IRRGPU_CUDART_DIR, the installed lib/irrgpu/cudart, or the build's.
std::string cudart_dir() {
  if (const char* env = std::getenv("IRRGPU_CUDART_DIR")) return env;
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const auto installed = exe.parent_path().parent_path() / "lib" / "irrgpu" / "cudart";
    if (std::filesystem::exists(installed / "libcudart.so.13")) return installed.string();
  }
  return IRRGPU_CUDART_BUILD_DIR;
}

std::string checked_cudart_dir() {
  const std::string dir = cudart_dir();
  if (!std::filesystem::exists(std::filesystem::path(dir) / "libcudart.so.13"))
    throw Error("irrgpu's CUDA runtime is not in " + dir + " (set IRRGPU_CUDART_DIR)", Error::Kind::config);
  return dir;
}

// --dry-run: the program is a file that can be run, where execvp would look for it.
void check_program(const std::string& name) {
  std::vector<std::string> candidates{name};
  const char* path = std::getenv("PATH");
  if (name.find('/') == std::string::npos && path) {
    candidates.clear();
    std::istringstream dirs(path);
    for (std::string dir; std::getline(dirs, dir, ':');) candidates.push_back((dir.empty() ? "." : dir) + "/" + name);
  }
  for (const auto& c : candidates)
    if (std::filesystem::is_regular_file(c) && access(c.c_str(), X_OK) == 0) return;
  throw Error("cannot run " + name + " (not found or not executable)", Error::Kind::usage);
}

// Starts the program with its end of the socket; returns its pid.
pid_t spawn(const std::vector<std::string>& program, int fd) {
  const std::string dir = checked_cudart_dir();
  std::cout.flush();
  const pid_t pid = fork();
  if (pid < 0) throw Error(std::string("cannot start the program: ") + std::strerror(errno));
  if (pid == 0) {
    const char* old = std::getenv("LD_LIBRARY_PATH");
    const std::string path = dir + (old && *old ? ":" + std::string(old) : "");
    setenv("LD_LIBRARY_PATH", path.c_str(), 1);
    setenv("IRRGPU_CUDART_FD", std::to_string(fd).c_str(), 1);
    std::vector<char*> argv;
    for (const auto& a : program) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execvp(argv[0], argv.data());
    std::fprintf(stderr, "irrgpu: error: cannot run %s: %s\n", argv[0], std::strerror(errno));
    std::_Exit(127);
  }
  return pid;
}

int wait_for(pid_t pid) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

}  // namespace

int exec(const RunOptions& o) {
  return guarded([&] {
    check_mode(o);
    const sim::Config config = load(o.config);
    if (o.dry_run) {
      checked_cudart_dir();
      check_program(o.program.front());
    }
    int fds[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
      throw Error(std::string("cannot open the socket to the program: ") + std::strerror(errno));
    // The program's end stays open across exec; irrgpu's is closed in the child.
    fcntl(fds[1], F_SETFD, 0);
    int exit_code = 0;
    bool broken = false;
    std::unique_ptr<cudart::Server> server;
    auto run_program = [&](runtime::Device& dev, std::function<std::uint64_t()> now) {
      server = std::make_unique<cudart::Server>(dev, config, std::move(now));
      const pid_t pid = spawn(o.program, fds[1]);
      close(fds[1]);
      broken = !server->serve(fds[0]);
      close(fds[0]);
      exit_code = wait_for(pid);
    };

    // Every unit's instructions parse; running one needs its unit enabled (the error says how).
    core::ptx::ExtensionRegistry extensions;
    gpu::add_all_instructions(extensions);
    std::unique_ptr<TimedGpu> timed_gpu;
    sim::Simulation* timed = nullptr;
    if (o.mode == "timing") {
      timed_gpu = std::make_unique<TimedGpu>(o, extensions);
      if (o.dry_run) return dry_run_done(o.program.front() + " (timing)");
      timed = timed_gpu->sim.get();
      gpu::Host host("host", [&] { run_program(*timed_gpu->device, [] { return sim::now_ps(); }); });
      timed->run();
    } else {
      gpu::check_none_enabled(config);
      if (o.dry_run) return dry_run_done(o.program.front() + " (functional)");
      mem::BackingStore store;
      runtime::Device dev(store, &extensions);
      dev.echo_printf(!o.quiet);
      run_program(dev, {});
    }

    if (!server->connected() && exit_code == 127)
      throw Error("cannot run " + o.program.front() + " (not found, not executable, or its libraries missing)",
                  Error::Kind::usage);
    if (!server->connected())
      throw Error(o.program.front() + " never called irrgpu's CUDA runtime: build it with nvcc -cudart shared "
                  "(the default links NVIDIA's statically; docs/cuda-apps.md)", Error::Kind::usage);
    nlohmann::json kernels = nlohmann::json::array();
    std::uint64_t warp = 0, thread = 0, cycles = 0, launches = 0;
    for (const auto& [name, k] : server->kernels()) {
      kernels.push_back({{"kernel", name}, {"name", sim::demangled(name)}, {"launches", k.launches}, {"warp_instructions", k.warp_instructions},
                         {"thread_instructions", k.thread_instructions}, {"cycles", k.cycles}});
      if (!k.rewrite.empty()) kernels.back()["rewrite"] = k.rewrite;
      warp += k.warp_instructions, thread += k.thread_instructions, cycles += k.cycles, launches += k.launches;
    }
    if (!o.quiet) {
      std::cout << "irrgpu exec: " << o.program.front() << " exited with " << exit_code << "; " << launches
                << " kernel launches, " << warp << " warp instructions, " << thread << " thread instructions"
                << (timed ? ", " + std::to_string(cycles) + " kernel cycles" : "") << "\n";
      for (const auto& [name, k] : server->kernels())
        std::cout << "  " << std::left << std::setw(32) << sim::demangled(name) << std::right << std::setw(6) << k.launches << " launches"
                  << std::setw(14) << k.warp_instructions << " warp instructions"
                  << (timed ? std::string(" ") + std::to_string(k.cycles) + " cycles" : "")
                  << (k.rewrite.empty() ? "" : "  [" + k.rewrite + "]") << "\n";
      if (timed) timed->print_summary(std::cout, o.stats_pattern.empty() ? "gpu.total.*" : o.stats_pattern);
    }
    if (timed_gpu) timed_gpu->report_profile(o);
    if (timed && !server->failures().empty())
      timed->mark_incomplete("the program failed: " + server->failures().front());
    if (timed && !o.output_dir.empty()) {
      timed->write_outputs(o.output_dir, o.command_line);
      write_kernel_stats(kernel_stats(timed->stats()), o.output_dir);
    }
    if (!o.output_dir.empty()) {
      std::filesystem::create_directories(o.output_dir);
      nlohmann::json record = {{"program", o.program}, {"exit_code", exit_code}, {"mode", o.mode}, {"kernels", kernels},
                               {"failures", server->failures()}};
      sim::write_file((std::filesystem::path(o.output_dir) / "exec.json").string(), record.dump(2) + "\n");
    }
    for (const auto& f : server->failures()) std::cerr << "irrgpu: error: " << f << "\n";
    if (broken) throw Error(o.program.front() + " broke off a CUDA call mid-way");
    if (exit_code) return exit_code;
    return server->failures().empty() ? 0 : 1;
  });
}

}  // namespace irr::app
