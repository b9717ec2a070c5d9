// SPDX-License-Identifier: Apache-2.0
// The irrgpu command line.
#include <CLI/CLI.hpp>

#include <cstdlib>
#include <iostream>

#include "apps/irrgpu/area.h"
#include "apps/irrgpu/formal.h"
#include "apps/irrgpu/commands.h"
#include "apps/irrgpu/sweep.h"

namespace {

// SystemC prints a banner when its main() starts the kernel; this runs before that main.
const bool kNoBanner = setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0) == 0;

void add_config_options(CLI::App& cmd, irr::app::ConfigOptions& o) {
  // One value an occurrence, so that a command's own arguments after them are not taken as presets.
  cmd.add_option("-c,--config", o.configs,
                 "Preset name (gtx480, gtx980, kim4x16, ...) or YAML file; repeatable, later ones override "
                 "(default: gtx480)")
      ->allow_extra_args(false);
  cmd.add_option("-s,--set", o.sets, "Override one key: key.path=value (YAML value); repeatable")->allow_extra_args(false);
}

void add_simulation_options(CLI::App& cmd, irr::app::RunOptions& run) {
  add_config_options(cmd, run.config);
  cmd.add_option("-o,--output-dir", run.output_dir, "Write config.yaml, stats.json, stats.csv and run.json here");
  cmd.add_option("--seed", run.seed, "Random seed (sets sim.seed)");
  cmd.add_option("--log", run.log_levels, "PATTERN=LEVEL for modules whose hierarchical name matches "
                                           "the glob (e.g. 'example.*=debug'); repeatable");
  cmd.add_option("--log-file", run.log_file, "Also write log lines to this file");
  cmd.add_option("--stats", run.stats_pattern, "Print only the statistics whose names match this glob");
  cmd.add_option("--sample-every", run.sample_every,
                 "Sample every statistic each N cycles into a time series (sets stats.sample_every)");
  cmd.add_flag("-q,--quiet", run.quiet, "Print nothing but errors and warnings");
  cmd.add_flag("--progress", run.progress, "Show the progress line even when stderr is not a terminal");
  cmd.add_flag("--profile", run.profile,
               "Profile the timed SMs by PTX and CUDA source line: issued instructions, stall cycles by reason, "
               "memory requests, L1/L2 misses (a table, and profile.json with -o)");
  cmd.add_flag("--dry-run", run.dry_run,
               "Check the command line, configuration and input and elaborate the model, then stop: nothing is "
               "simulated or written");
  cmd.add_option("--mode", run.mode, "timing (the GPU model, default) or functional");
  cmd.add_option("--vcd", run.vcd, "Write the probes selected by --trace as a VCD waveform");
  cmd.add_option("--fst", run.fst, "Write the probes selected by --trace as an FST waveform (needs vcd2fst)");
  cmd.add_option("--trace", run.trace, "Glob of probe names to dump (default: all); repeatable");
  cmd.add_option("--txn-trace", run.txn_trace, "Write transactions and events as Chrome trace-event JSON (opens in Perfetto)");
  cmd.add_option("--txn-trace-limit", run.txn_trace_limit, "Keep at most this many trace events (default 200000; kernel spans are kept past it)")->check(CLI::PositiveNumber);
}

}  // namespace

// SystemC's own main() calls sc_main (declared extern "C" by SystemC).
extern "C" int sc_main(int argc, char** argv) {
  (void)kNoBanner;
  CLI::App app{"irrgpu: a SystemC/TLM-2.0 model of GPU hardware for irregular workloads"};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "Help for every subcommand");

  irr::app::RunOptions run;
  for (int i = 0; i < argc; ++i) run.command_line.push_back(argv[i]);
  auto* run_cmd = app.add_subcommand("run", "Elaborate the configured model and simulate it");
  add_simulation_options(*run_cmd, run);
  run_cmd->add_option("--workload", run.workload,
                      "Run a workload: graph (bfs, sssp, pr) or wavefront (dtw, heat2d, hist, int_img, sor, sw); see `irrgpu workloads`");
  run_cmd->add_option("--variant", run.variant, "The workload's variant (default: data; wavefront: global)");
  run_cmd->add_option("--tiles", run.tiles, "Wavefront workloads: WxH tiles, one block each (default: 32x32)");
  run_cmd->add_option("--tile", run.tile, "Wavefront workloads: elements per tile side, one thread each (1-1024, default: 32)");
  run_cmd->add_option("--scale", run.scale,
                      "Suite kernels: multiplies each input's main dimension; lock benchmarks: 16,384 items times it (default: 1)");
  run_cmd->add_option("--collisions", run.collisions, "Lock benchmarks: entries the items pick from at random (default: 1024)");
  run_cmd->add_flag("--handoff", run.handoff,
                    "Lock benchmarks ht, mst, atm: measure the cycles from a lock's release to its next acquire (instrumented kernels)");
  run_cmd->add_option("--servers", run.servers, "Lock benchmarks, delegated: server thread blocks (default: 15, one per SM of gtx480)");
  run_cmd->add_option("--graph", run.graph, "Graph file (.mtx, .gr, SNAP) or generator (grid:rows=R,cols=C, rmat:scale=S, ...)");
  run_cmd->add_option("--source", run.source, "Source vertex of bfs and sssp (default: the first vertex with an outgoing edge)")
      ->check(CLI::NonNegativeNumber);
  run_cmd->add_option("--timing-from-kernel", run.timing_from_kernel,
                      "Timing mode: run kernel launches before K functionally (sets gpu.timing_from_kernel)");

  irr::app::RunOptions exec;
  for (int i = 0; i < argc; ++i) exec.command_line.push_back(argv[i]);
  auto* exec_cmd = app.add_subcommand("exec", "Run an unmodified CUDA program (built with nvcc -cudart shared) on the simulated GPU");
  add_simulation_options(*exec_cmd, exec);
  exec_cmd->add_option("program", exec.program, "-- PROGRAM [ARGS...]: the CUDA application and its arguments")->required();

  irr::app::ConfigOptions show, check;
  bool origins = false;
  std::string check_file;
  auto* config_cmd = app.add_subcommand("config", "Show, check and document configurations");
  config_cmd->require_subcommand(1);
  auto* show_cmd = config_cmd->add_subcommand("show", "Print the effective configuration as YAML");
  add_config_options(*show_cmd, show);
  show_cmd->add_flag("--origins", origins, "Say where each value comes from");
  auto* check_cmd = config_cmd->add_subcommand("check", "Validate a configuration file");
  check_cmd->add_option("file", check_file, "YAML configuration file or preset name")->required();
  add_config_options(*check_cmd, check);
  auto* doc_cmd = config_cmd->add_subcommand("doc", "Print the configuration reference (Markdown)");
  irr::app::GtkwOptions gtkw;
  auto* gtkw_cmd = app.add_subcommand("gtkw", "Write a GTKWave save file grouping the model's probes by module");
  add_config_options(*gtkw_cmd, gtkw.config);
  gtkw_cmd->add_option("--trace", gtkw.trace, "Glob of probe names to show (default: all); repeatable");
  gtkw_cmd->add_option("--dumpfile", gtkw.dumpfile, "Waveform file the save file opens");
  gtkw_cmd->add_option("-o,--output", gtkw.output, "The .gtkw file to write")->required();
  gtkw_cmd->add_flag("--gpu", gtkw.gpu, "The timed GPU's probes (as irrgpu run --workload builds it) instead of sim.top's");
  gtkw_cmd->add_option("--unit", gtkw.units, "A unit of the registry: attach it to the timed GPU and show its waveform group; repeatable");
  irr::app::AreaOptions area;
  auto* area_cmd = app.add_subcommand("area", "Synthesise an RTL block with Yosys: cells, area, transistors, critical path");
  area_cmd->add_option("block", area.block, "Block name from rtl/blocks.json");
  area_cmd->add_flag("--list", area.list, "List the blocks");
  area_cmd->add_option("--top", area.top, "Top module of an ad hoc design (with --source)");
  area_cmd->add_option("--source", area.sources, "Verilog file of an ad hoc design; repeatable");
  area_cmd->add_option("-p,--param", area.params, "Parameter override NAME=VALUE; repeatable");
  area_cmd->add_option("--json", area.json, "Also write the report as JSON here");
  area_cmd->add_flag("--dry-run", area.dry_run, "Check the block, its sources and parameters; synthesise nothing");
  area_cmd->add_flag("--sta", area.sta, "Static timing with OpenSTA: setup paths at the clock, the worst listed");
  area_cmd->add_option("--liberty", area.liberty, "Your own liberty file (areas and timing from it; implies --sta)");
  area_cmd->add_option("--clock", area.clock, "Clock for --sta, e.g. 1.27GHz (default: the core clock of the block's preset)");
  area_cmd->add_option("--preset", area.preset, "Preset whose core clock --sta uses (default: the block's, rtl/blocks.json)");
  area_cmd->add_option("--paths", area.paths, "Worst paths --sta lists (default 5)")->check(CLI::Range(1u, 1000u));
  irr::app::UnitOptions unit;
  auto* unit_cmd = app.add_subcommand("unit", "Run a stimulus file (inputs and expected outputs a cycle) against an RTL block's model or RTL");
  unit_cmd->add_option("block", unit.block, "Block name (optional: the file names it)");
  unit_cmd->add_option("--stimulus", unit.stimulus, "The stimulus file (YAML; docs/rtl.md \"Stimulus files\")");
  unit_cmd->add_option("--impl", unit.impl, "model (default) or rtl");
  unit_cmd->add_option("--fst", unit.fst, "The RTL's waveform (every signal) as FST (--impl rtl)");
  unit_cmd->add_option("--vcd", unit.vcd, "The model's waveform as VCD, with the RTL's names (sync_fifo's model)");
  unit_cmd->add_option("-o,--output-dir", unit.output_dir, "Write result.json (every expectation: where, cycle, field, passed) here");
  unit_cmd->add_flag("--list", unit.list, "List the blocks and their default parameters");
  irr::app::CoverageOptions coverage;
  auto* coverage_cmd = app.add_subcommand("coverage", "Line, branch, toggle and functional-bin coverage of an RTL block's runs (Verilator)");
  coverage_cmd->add_option("block", coverage.block, "Block name (irrgpu unit --list)")->required();
  coverage_cmd->add_option("--stimulus", coverage.stimuli, "A stimulus file to run on the coverage build; repeatable (default: the block's examples)");
  coverage_cmd->add_option("--data", coverage.data, "A folder of counts other runs wrote with IRRGPU_COVERAGE set; repeatable");
  coverage_cmd->add_option("-o,--output", coverage.out, "Folder for the data, merged.dat, annotated source, coverage.json (default coverage-BLOCK)");
  coverage_cmd->add_option("--json", coverage.json, "Also write the report as JSON here");
  coverage_cmd->add_flag("--require-bins", coverage.require_bins, "Exit 1 when a functional bin (cover statement or test bin) was never hit");
  irr::app::FormalOptions formal;
  auto* formal_cmd = app.add_subcommand("formal", "Prove an RTL block's properties with yosys-smtbmc: proved, bounded or failed with a counterexample");
  formal_cmd->add_option("block", formal.block, "Block name from rtl/blocks.json");
  formal_cmd->add_flag("--list", formal.list, "List the blocks with properties");
  formal_cmd->add_option("-p,--param", formal.params, "Parameter override NAME=VALUE over the block's formal parameters; repeatable");
  formal_cmd->add_option("--depth", formal.depth, "Steps of BMC and of the induction (default: the block's)")->check(CLI::Range(1u, 1000u));
  formal_cmd->add_option("--solver", formal.solver, "SMT solver for yosys-smtbmc: z3 (default), cvc5 or yices");
  formal_cmd->add_option("--timeout", formal.timeout, "Seconds a solver call may take (default 900)")->check(CLI::Range(1u, 86400u));
  formal_cmd->add_option("-o,--output", formal.out, "Folder for counterexamples (VCD and .gtkw; default formal-BLOCK)");
  formal_cmd->add_option("--json", formal.json, "Also write the report as JSON here");
  formal_cmd->add_flag("--mutant", formal.mutant, "Check the block's declared mutant instead: exit 0 when a property catches it");
  formal_cmd->add_flag("--dry-run", formal.dry_run, "Check the block, its formal section and the tools; prove nothing");
  std::string ptx_file;
  auto* ptx_cmd = app.add_subcommand("ptx", "PTX front end");
  ptx_cmd->require_subcommand(1);
  auto* ptx_check_cmd = ptx_cmd->add_subcommand("check", "Parse a PTX module; list its kernels and resource use, or the first error");
  ptx_check_cmd->add_option("file", ptx_file, "PTX file (nvcc -ptx -arch=sm_75)")->required();
  irr::app::ConfigOptions ptx_config;
  add_config_options(*ptx_check_cmd, ptx_config);
  irr::app::DacSplitOptions dac;
  auto* dac_cmd = app.add_subcommand("dac", "Decoupled affine computation (docs/dac.md)");
  dac_cmd->require_subcommand(1);
  auto* dac_split_cmd = dac_cmd->add_subcommand("split", "Split a PTX module's kernels into affine and non-affine streams");
  dac_split_cmd->add_option("file", dac.file, "PTX file (nvcc -ptx -arch=sm_75)")->required();
  dac_split_cmd->add_option("-k,--kernel", dac.kernel, "Only this kernel (default: every kernel)");
  dac_split_cmd->add_option("--tid-dims", dac.tid_dims, "Thread-index dimensions that are affine: 1 (%tid.x, Eq. 3.1) or 3")
      ->check(CLI::Range(1, 3));
  dac_split_cmd->add_option("--max-divergent", dac.max_divergent_conditions,
                            "Divergent affine conditions an operand may have (the dissertation's 2)");
  dac_split_cmd->add_option("--dcrf-entries", dac.dcrf_entries, "Divergent affine conditions the DCRF holds for a kernel (8)");
  irr::app::DacRunOptions dac_run;
  auto* dac_run_cmd = dac_cmd->add_subcommand("run", "Run the suite kernels as written and split; check both (functional)");
  dac_run_cmd->add_option("kernel", dac_run.kernels, "Suite kernels (default: all; `irrgpu workloads` lists them)");
  dac_run_cmd->add_option("--tid-dims", dac_run.tid_dims, "Thread-index dimensions that are affine: 1 or 3")->check(CLI::Range(1, 3));
  dac_run_cmd->add_option("--max-divergent", dac_run.max_divergent_conditions, "Divergent affine conditions an operand may have");
  dac_run_cmd->add_option("--dcrf-entries", dac_run.dcrf_entries, "Divergent affine conditions the DCRF holds for a kernel (8)");
  irr::app::CalibrateOptions calibrate;
  auto* calibrate_cmd = app.add_subcommand("calibrate", "Run the calibration microbenchmarks on the timed GPU (docs/results/calibration.md)");
  add_config_options(*calibrate_cmd, calibrate.config);
  calibrate_cmd->add_option("benchmark", calibrate.benchmarks,
                            "latency, shared, alu, bandwidth, atomics, coalescing, launch (default: all)");
  calibrate_cmd->add_option("--json", calibrate.json, "Also write the figures as JSON here");
  calibrate_cmd->add_flag("--dry-run", calibrate.dry_run, "Check the names and configuration and elaborate the GPU; run nothing");
  irr::app::SweepRunOptions sweep_run;
  irr::app::SweepCollectOptions sweep_collect;
  irr::app::SweepTaskOptions sweep_task;
  std::string sweep_dir;
  auto* sweep_cmd = app.add_subcommand("sweep", "Run a grid of configurations, workloads and graphs, locally or on Slurm (docs/sweeps.md)");
  sweep_cmd->require_subcommand(1);
  auto* sweep_run_cmd = sweep_cmd->add_subcommand("run", "Expand a sweep file and run what is not done yet");
  sweep_run_cmd->add_option("spec", sweep_run.file, "The sweep file (YAML)")->required();
  sweep_run_cmd->add_option("-o,--output-dir", sweep_run.output_dir, "The sweep's folder (default: sweeps/NAME)");
  sweep_run_cmd->add_option("--backend", sweep_run.backend, "local (default) or slurm");
  sweep_run_cmd->add_option("-j,--jobs", sweep_run.jobs, "local: runs at once (default: one per core)")->check(CLI::PositiveNumber);
  sweep_run_cmd->add_option("--only", sweep_run.only, "KEY=VALUE: run only the runs with this parameter; repeatable");
  sweep_run_cmd->add_flag("--rerun-failed", sweep_run.rerun_failed, "Run failed runs again too");
  sweep_run_cmd->add_flag("--dry-run", sweep_run.dry_run, "List the runs and their command lines; run nothing");
  sweep_run_cmd->add_flag("--progress", sweep_run.progress, "The progress line even when stderr is not a terminal");
  sweep_run_cmd->add_flag("--no-report", sweep_run.no_report, "Do not run the sweep file's report: command at the end");
  sweep_run_cmd->add_flag("--wait", sweep_run.wait, "slurm: wait until every submitted run has ended");
  sweep_run_cmd->add_option("--time", sweep_run.time, "slurm: time limit per run (sbatch --time)");
  sweep_run_cmd->add_option("--mem", sweep_run.mem, "slurm: memory per run (sbatch --mem; default: estimated)");
  sweep_run_cmd->add_option("--partition", sweep_run.partition, "slurm: partition");
  sweep_run_cmd->add_option("--account", sweep_run.account, "slurm: account");
  sweep_run_cmd->add_option("--throttle", sweep_run.throttle, "slurm: at most this many runs at once");
  auto* sweep_status_cmd = sweep_cmd->add_subcommand("status", "Runs done, failed (with their error line), pending");
  sweep_status_cmd->add_option("dir", sweep_dir, "The sweep's folder")->required();
  auto* sweep_collect_cmd = sweep_cmd->add_subcommand("collect", "Every run's parameters and statistics in one table");
  sweep_collect_cmd->add_option("dir", sweep_collect.dir, "The sweep's folder")->required();
  sweep_collect_cmd->add_option("-o,--output", sweep_collect.output, "results.csv (default DIR/results.csv) or .json");
  sweep_collect_cmd->add_option("--stats", sweep_collect.stats, "Glob of statistic names (default: all); repeatable");
  auto* sweep_report_cmd = sweep_cmd->add_subcommand("report", "Run the sweep file's report: command on the results");
  sweep_report_cmd->add_option("dir", sweep_dir, "The sweep's folder")->required();
  auto* sweep_task_cmd = sweep_cmd->add_subcommand("task", "One run of a sweep (what a backend starts)");
  sweep_task_cmd->add_option("dir", sweep_task.dir, "The sweep's folder")->required();
  sweep_task_cmd->add_option("id", sweep_task.id, "The run's id");
  sweep_task_cmd->add_option("--list", sweep_task.list, "A file of run ids, one a line (a Slurm job array's)");
  sweep_task_cmd->add_option("--index", sweep_task.index, "The line of --list (0-based)");
  std::vector<std::string> plot_args;
  auto* plot_cmd = app.add_subcommand("plot", "Plot collected sweep results (matplotlib): bars, lines, stalls; see `irrgpu plot -h`");
  plot_cmd->prefix_command();
  plot_cmd->set_help_flag();
  auto* workloads_cmd = app.add_subcommand("workloads", "List the graph and wavefront workloads and their variants");
  auto* version_cmd = app.add_subcommand("version", "Print versions");
  auto* stats_cmd = app.add_subcommand("stats", "Document the statistics");
  stats_cmd->require_subcommand(1);
  auto* stats_doc_cmd = stats_cmd->add_subcommand("doc", "Print the statistics reference (Markdown): every statistic the timed GPU registers");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "irrgpu: usage error: " << e.what() << " (see --help)\n";
    return 2;
  }

  if (*run_cmd) return irr::app::run(run);
  if (*exec_cmd) return irr::app::exec(exec);
  if (*show_cmd) return irr::app::config_show(show, origins);
  if (*check_cmd) return irr::app::config_check(check_file, check);
  if (*doc_cmd) return irr::app::config_doc();
  if (*gtkw_cmd) return irr::app::gtkw(gtkw);
  if (*area_cmd) return irr::app::run_area(area);
  if (*unit_cmd) {
    if (!unit.list && unit.stimulus.empty()) {
      std::cerr << "irrgpu: usage error: unit needs --stimulus FILE (or --list)\n";
      return 2;
    }
    return irr::app::unit(unit);
  }
  if (*coverage_cmd) return irr::app::coverage(coverage);
  if (*formal_cmd) return irr::app::guarded([&] { return irr::app::formal(formal); });
  if (*ptx_check_cmd) return irr::app::ptx_check(ptx_file, ptx_config);
  if (*dac_split_cmd) return irr::app::dac_split(dac);
  if (*dac_run_cmd) return irr::app::dac_run(dac_run);
  if (*calibrate_cmd) return irr::app::calibrate(calibrate);
  if (*sweep_run_cmd) return irr::app::sweep_run(sweep_run);
  if (*sweep_status_cmd) return irr::app::sweep_status(sweep_dir);
  if (*sweep_collect_cmd) return irr::app::sweep_collect(sweep_collect);
  if (*sweep_report_cmd) return irr::app::sweep_report(sweep_dir);
  if (*sweep_task_cmd) return irr::app::sweep_task(sweep_task);
  if (*plot_cmd) return irr::app::plot(plot_cmd->remaining());
  if (*workloads_cmd) return irr::app::list_workloads();
  if (*version_cmd) return irr::app::version();
  if (*stats_doc_cmd) return irr::app::stats_doc();
  return 2;
}
