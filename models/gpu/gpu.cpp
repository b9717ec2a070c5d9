// SPDX-License-Identifier: Apache-2.0
#include "models/gpu/gpu.h"

#include <cmath>
#include <numeric>
#include <tuple>

#include "models/gpu/front_end.h"
#include "models/gpu/units.h"
#include "models/mem/memory_system.h"
#include "models/power/energy.h"
#include "sim/error.h"

namespace irr::gpu {

// sim.sampling's statistics (made only when it is on, so that every other run's are as before).
struct Gpu::SamplingStats {
  explicit SamplingStats(sim::Simulation& sim, const Gpu& gpu)
      : timed(sim.counter(gpu, "sampling.timed_kernels", "launches timed whole in detail (sim.sampling)", "kernels")),
        extrapolated(sim.counter(gpu, "sampling.extrapolated_kernels",
                                 "launches charged by a measured rate: whole (kernels: their cluster's cycles a warp instruction) "
                                 "or their CTAs past the settled waves (blocks)",
                                 "kernels")),
        cycles(sim.counter(gpu, "sampling.extrapolated_cycles",
                           "core cycles charged by a measured rate: estimated, and part of gpu.kernel_cycles", "cycles")),
        bound(sim.counter(gpu, "sampling.error_bound_cycles",
                          "how far sampling.extrapolated_cycles may be off: the warp instructions charged x the largest "
                          "departure of a timed launch's (or wave's) cycles a warp instruction from their mean, summed",
                          "cycles")),
        warp(sim.counter(gpu, "sampling.warp_instructions",
                         "warp instructions run functionally and charged (exact: counted by the functional run; in gpu.total.*)",
                         "instructions")),
        thread(sim.counter(gpu, "sampling.thread_instructions",
                           "thread instructions run functionally and charged (exact; in gpu.total.*)", "instructions")),
        warmed(sim.counter(gpu, "sampling.warmed_lines", "L2 lines extrapolated launches touched, installed as they left them", "lines")),
        ctas(sim.counter(gpu, "sampling.extrapolated_ctas", "CTAs run functionally at the end of a launch (sim.sampling blocks)", "CTAs")) {}
  sim::Counter &timed, &extrapolated, &cycles, &bound, &warp, &thread, &warmed, &ctas;
};

void RoundRobinCtaScheduler::dispatch(core::KernelLaunch& k, std::vector<std::unique_ptr<core::Sm>>& sms) {
  // Give out CTAs in order, one per SM per round, while some SM has room.
  for (bool placed = true; placed && k.next_cta < k.ctas();) {
    placed = false;
    for (std::size_t tried = 0; tried < sms.size() && k.next_cta < k.ctas(); ++tried) {
      core::Sm& sm = *sms[next_sm_];
      next_sm_ = (next_sm_ + 1) % sms.size();
      if (!sm.fits(k)) continue;
      sm.start_cta(k, k.next_cta++);
      placed = true;
    }
  }
}

Gpu::Gpu(const sc_core::sc_module_name& name, sim::Simulation& sim)
    : sc_core::sc_module(name),
      sim_(sim),
      map_(mem::address_map(sim.config())),
      launch_overhead_(sim.config().get_time("host.launch_overhead")),
      device_launch_latency_(sim.config().get_time("host.device_launch_latency")),
      device_block_latency_(sim.config().get_time("host.device_launch_block_latency")),
      copy_bandwidth_(sim.config().get_bandwidth("host.copy_bandwidth")),
      timing_from_kernel_(sim.config().get_uint("gpu.timing_from_kernel")),
      invalidate_l1_at_launch_(sim.config().get_bool("l1.invalidate_at_launch")),
      kernel_count_(sim.counter(*this, "kernels", "kernels launched and timed", "kernels")),
      fast_forwarded_(sim.counter(*this, "fast_forwarded_kernels", "kernels run functionally before gpu.timing_from_kernel", "kernels")),
      copied_bytes_(sim.counter(*this, "host_copy_bytes", "bytes copied between host and device", "bytes")),
      kernel_cycles_(sim.counter(*this, "kernel_cycles",
                                 "core cycles inside timed kernels, first CTA dispatched to last CTA retired (no host time)",
                                 "cycles")) {
  const auto sms = static_cast<std::uint32_t>(sim.config().get_uint("gpu.num_sms"));
  // A unit's CTA scheduler (the registry's, by gpu.cta_scheduler) reads memory through an input of its own.
  const Unit* scheduler_unit = cta_scheduler_unit(sim.config().get_string("gpu.cta_scheduler"));
  crossbar_ = std::make_unique<mem::Crossbar>("interconnect", sim, sms, map_.partitions,
                                              scheduler_unit ? std::vector<std::string>{"cta_scheduler"} : std::vector<std::string>{});
  for (std::uint32_t p = 0; p < map_.partitions; ++p)
    partitions_.push_back(std::make_unique<mem::MemoryPartition>(("partition" + std::to_string(p)).c_str(), sim, p, map_));
  for (std::uint32_t i = 0; i < sms; ++i)
    sms_.push_back(std::make_unique<core::Sm>(("sm" + std::to_string(i)).c_str(), sim, i, map_, pool_, [this](std::uint64_t cta) { cta_finished(cta); }));
  for (std::uint32_t i = 0; i < sms; ++i)
    tlm_glue::bind_hop(sim, sms_[i]->l1().mem_side.socket, crossbar_->sm_side[i]->socket, "check_sm" + std::to_string(i), checkers_);
  for (std::uint32_t p = 0; p < map_.partitions; ++p)
    tlm_glue::bind_hop(sim, crossbar_->mem_side[p]->socket, partitions_[p]->target.socket, "check_partition" + std::to_string(p), checkers_);
  if (scheduler_unit) {  // after the SMs, so that it steps after them each cycle
    front_end_ = std::make_unique<FrontEndPort>("front_end", sim, map_, pool_, sms);
    tlm_glue::bind_hop(sim, front_end_->mem_side.socket, crossbar_->sm_side[sms]->socket, "check_front_end", checkers_);
    scheduler_ = scheduler_unit->cta_scheduler(sim, *front_end_);
  } else {
    scheduler_ = std::make_unique<RoundRobinCtaScheduler>();
  }
  if (const std::string mode = sim.config().get_string("sim.sampling"); mode != "off") {
    sampler_ = std::make_unique<KernelSampler>(sim.config());
    sampling_ = std::make_unique<SamplingStats>(sim, *this);
    by_kernels_ = mode == "kernels" || mode == "both";
    by_blocks_ = mode == "blocks" || mode == "both";
    if (by_kernels_) {
      const KernelSampler* sampler = sampler_.get();
      sim.stats().formula(std::string(this->name()) + ".sampling.clusters", "clusters of alike launches (sim.sampling kernels)",
                          "clusters", [sampler] { return static_cast<double>(sampler->clusters()); });
    }
  }
  sim.watch(this->name(), *this);
  add_summary();
}

Gpu::~Gpu() = default;

// Whole-GPU figures under <name>.total.*: what a timing run prints by default.
void Gpu::add_summary() {
  auto& stats = sim_.stats();
  const std::string prefix = std::string(name()) + ".";
  auto total = [&stats, prefix](const std::string& suffix) { return stats.sum(prefix, suffix); };
  auto ratio = [](double a, double b) { return b > 0 ? a / b : 0.0; };
  sim::ClockScheduler* core = &sim_.clock("core");
  auto cycles = [core] { return static_cast<double>(core->domain().cycle_at(sim::now_ps())); };
  const std::string t = prefix + "total.";
  stats.formula(t + "core_cycles", "core cycles simulated (host launch and copy time included)", "cycles", cycles);
  stats.formula(t + "warp_instructions", "warp instructions issued, all SMs", "instructions", [=] { return total(".warp_instructions"); });
  stats.formula(t + "thread_instructions", "thread instructions issued, all SMs", "instructions", [=] { return total(".thread_instructions"); });
  stats.formula(t + "warp_ipc", "warp instructions per core cycle, whole GPU", "instructions/cycle",
                [=] { return ratio(total(".warp_instructions"), cycles()); });
  stats.formula(t + "thread_ipc", "thread instructions per core cycle, whole GPU", "instructions/cycle",
                [=] { return ratio(total(".thread_instructions"), cycles()); });
  const sim::Counter* inside = &kernel_cycles_;
  stats.formula(t + "kernel_cycles", "core cycles inside timed kernels (no launch overhead, copies or host time)", "cycles",
                [inside] { return static_cast<double>(inside->value()); });
  stats.formula(t + "kernel_thread_ipc", "thread instructions per core cycle inside kernels, whole GPU",
                "instructions/cycle", [=] { return ratio(total(".thread_instructions"), static_cast<double>(inside->value())); });
  stats.formula(t + "requests_per_load", "line requests per global warp load", "requests",
                [=] { return ratio(total(".global_load_requests"), total(".global_loads")); });
  stats.formula(t + "l1_hit_rate", "L1 load hits per load access", "ratio",
                [=] { return ratio(total(".l1.hits"), total(".l1.hits") + total(".l1.misses")); });
  stats.formula(t + "l2_hit_rate", "L2 hits per access", "ratio", [=] { return ratio(total(".l2.hits"), total(".l2.accesses")); });
  for (const char* why : {"empty", "dependence", "memory", "memory.l1", "memory.l2", "memory.dram", "memory.atomic",
                          "memory.other", "barrier", "unit", "structural", "structural.ldst", "structural.sfu"})
    stats.formula(t + "stall." + why, std::string("scheduler cycles without issue: ") + why, "cycles",
                  [=] { return total(std::string(".stall.") + why); });
  stats.formula(t + "idle_sm_cycles", "SM-cycles inside kernels with no CTA resident (idle SMs, load imbalance)",
                "cycles", [=] { return total(".idle_cycles"); });
  power::declare(sim_, {prefix, static_cast<std::uint32_t>(sms_.size()), static_cast<std::uint32_t>(partitions_.size())});
}

std::uint64_t Gpu::resident_blocks(const core::ptx::Function& kernel, core::Dim3 block, std::uint32_t dynamic_shared,
                                   const core::ptx::Resources& resources) const {
  core::KernelLaunch k;
  k.kernel = &kernel;
  k.block = block;
  k.dynamic_shared = dynamic_shared;
  k.resources = resources;
  std::uint64_t n = 0;
  for (const auto& sm : sms_) n += sm->max_resident(k);
  return n;
}

void Gpu::allocated(const std::map<std::uint64_t, std::uint64_t>& base_to_bytes) {
  std::vector<mem::Region> regions;
  for (const auto& [base, bytes] : base_to_bytes) regions.push_back({base, bytes});
  for (auto& sm : sms_) sm->l1().policies().allocated(regions);
  for (auto& p : partitions_) p->policies().allocated(regions);
  if (profile_) {
    profile_->l1().allocated(regions);
    profile_->l2().allocated(regions);
  }
}

core::GridStats Gpu::launch(core::LaunchContext& ctx, const core::ptx::Function& kernel, core::Dim3 grid, core::Dim3 block,
                            const std::vector<std::uint8_t>& params, std::uint32_t dynamic_shared,
                            const core::ptx::Resources& resources) {
  return run(ctx, kernel, grid, block, params, dynamic_shared, resources, nullptr);
}

core::GridStats Gpu::run(core::LaunchContext& ctx, const core::ptx::Function& kernel, core::Dim3 grid, core::Dim3 block,
                         const std::vector<std::uint8_t>& params, std::uint32_t dynamic_shared,
                         const core::ptx::Resources& resources, const std::vector<std::uint64_t>* order) {
  if (kernels_ < timing_from_kernel_) {  // fast-forward: the functional executor, no simulated time
    ++kernels_;
    ++fast_forwarded_;
    core::LaunchContext c = ctx;
    c.sms = static_cast<std::uint32_t>(sms_.size());
    return core::run_grid(c, kernel, grid, block, params, dynamic_shared, order ? 1 : 64, order);
  }
  std::size_t cluster = 0;
  std::uint64_t work = 0;
  if (sampler_ && order)
    throw Error("launch of " + kernel.name + " with a CTA plan: sim.sampling cannot sample a launch whose CTAs wait on each other",
                Error::Kind::usage);
  if (by_kernels_)
    if (auto charged = sample(ctx, kernel, grid, block, params, dynamic_shared, cluster, work)) return *charged;
  wait(sc_core::sc_time(static_cast<double>(launch_cost(ctx, grid)), sc_core::SC_PS));
  core::KernelLaunch k;
  k.ctx = ctx;
  k.ctx.sms = static_cast<std::uint32_t>(sms_.size());
  k.kernel = &kernel;
  k.grid = grid;
  k.block = block;
  k.params = params;
  k.dynamic_shared = dynamic_shared;
  k.resources = resources;
  if (ctx.companion && ctx.module) k.companion_registers = core::ptx::kernel_resources(*ctx.module, *ctx.companion).registers;
  // Fermi: the L1s are invalidated at each kernel start (no coherence between SMs).
  if (invalidate_l1_at_launch_)
    for (auto& sm : sms_) sm->l1().invalidate_all();
  if (std::none_of(sms_.begin(), sms_.end(), [&](const auto& sm) { return sm->idle() && sm->fits(k); }))
    throw Error("kernel " + kernel.name + ": one CTA (" + std::to_string(block.count()) + " threads, " +
                std::to_string(resources.registers) + " registers per thread, " +
                std::to_string(resources.shared_bytes + dynamic_shared) + " B shared) does not fit an SM");
  current_ = &k;
  ++kernels_;
  ++kernel_count_;
  sim_.snapshot("kernel " + std::to_string(kernels_ - 1) + ": " + kernel.name + " start");
  sim::ClockScheduler& core = sim_.clock("core");
  k.ctx.cycle = [&core] { return core.domain().cycle_at(sim::now_ps()); };
  k.ctx.nanoseconds = [] { return sim::now_ps() / 1000; };
  const std::uint64_t begin = k.ctx.cycle();
  const sim::Picoseconds started = sim::now_ps();
  if (by_blocks_) {  // a launch of enough waves is watched wave by wave (sampling.h, settled_waves)
    const std::uint64_t wave = resident_blocks(kernel, block, dynamic_shared, resources);
    if (wave && grid.count() >= wave * sampler_->min_waves()) {  // each CTA's work, from a functional run undone at once
      core::LaunchProfile profile(kernel, partitions_.front()->l2().line_size(), grid.count());
      functional(ctx, kernel, grid, block, params, dynamic_shared, profile, Journal::undo);
      waves_.emplace(Waves{wave, {{begin, 0}}, std::nullopt, CtaWork(profile.cta_instructions, profile.cta_touches)});
    }
  }
  for (auto& sm : sms_) sm->kernel_begin(k);
  scheduler_->dispatch(k, sms_);
  wait(done_);
  last_kernel_cycles_ = k.ctx.cycle() - begin;
  for (auto& sm : sms_) sm->kernel_end(k);
  core::GridStats g{k.warp_instructions, k.thread_instructions};
  std::string extra;
  if (waves_ && waves_->settled && k.next_cta < k.ctas()) {  // the CTAs not started, run functionally and charged the waves' rate
    std::vector<std::uint64_t> left;
    for (std::uint64_t i = k.next_cta; i < k.ctas(); ++i) left.push_back(i);
    core::LaunchProfile profile(kernel, partitions_.front()->l2().line_size());
    const core::GridStats rest = functional(ctx, kernel, grid, block, params, dynamic_shared, profile, Journal::none, &left);
    warm_l2(profile);
    const std::uint64_t rest_work = std::accumulate(profile.per_pc.begin(), profile.per_pc.end(), std::uint64_t{0});
    const double w = static_cast<double>(rest_work);
    const auto cycles = static_cast<std::uint64_t>(std::llround(waves_->settled->rate * w));
    wait(sc_core::sc_time(static_cast<double>(core.domain().time_of(cycles)), sc_core::SC_PS));
    last_kernel_cycles_ += cycles;
    charged(cycles, static_cast<std::uint64_t>(std::llround(waves_->settled->spread * w)), rest_work, profile.threads);
    sampling_->ctas += left.size();
    g.warp_instructions += rest.warp_instructions;
    g.thread_instructions += rest.thread_instructions;
    extra = ",\"extrapolated_ctas\":" + std::to_string(left.size());
  } else if (sampler_) {
    ++sampling_->timed;
  }
  if (by_kernels_) sampler_->timed(cluster, work, last_kernel_cycles_);  // with both, part-charged by its waves
  waves_.reset();
  kernel_cycles_ += last_kernel_cycles_;
  trace_launch(kernel.name, grid, block, started, extra);
  current_ = nullptr;
  sim_.snapshot("kernel " + std::to_string(kernels_ - 1) + ": " + kernel.name);
  return g;
}

core::GridStats Gpu::functional(core::LaunchContext& ctx, const core::ptx::Function& kernel, core::Dim3 grid, core::Dim3 block,
                                const std::vector<std::uint8_t>& params, std::uint32_t dynamic_shared,
                                core::LaunchProfile& profile, Journal journal, const std::vector<std::uint64_t>* order,
                                std::string* printed) {
  core::LaunchContext c = ctx;
  c.sms = static_cast<std::uint32_t>(sms_.size());
  c.profile = &profile;
  if (journal == Journal::none) return core::run_grid(c, kernel, grid, block, params, dynamic_shared, 64, order);
  c.printf_out = [printed](const std::string& s) {
    if (printed) *printed += s;
  };
  store_.begin_journal();
  core::GridStats g;
  try {
    g = core::run_grid(c, kernel, grid, block, params, dynamic_shared, 64, order);
  } catch (...) {
    store_.commit_journal();  // the run ends on the program's fault, as an unsampled one would
    throw;
  }
  if (journal == Journal::undo) store_.rollback_journal();
  return g;
}

void Gpu::warm_l2(const core::LaunchProfile& profile) {
  // The L2 as the functional run leaves it: its lines in the order of their last touch (an LRU
  // array's content depends on no more), each slice its own. The L1s start every kernel empty.
  std::vector<std::tuple<std::uint64_t, std::uint64_t, bool>> touched;  // (last touch, line, written)
  touched.reserve(profile.lines.size());
  for (const auto& [line, t] : profile.lines) touched.emplace_back(t.last, line, t.written);
  std::sort(touched.begin(), touched.end());
  for (const auto& [last, line, written] : touched) {
    mem::CacheArray& l2 = partitions_[map_.partition(line)]->l2();
    if (l2.access(line)) {
      if (written) l2.mark_dirty(line);
    } else {
      l2.fill(line, written, true);  // a line pushed out leaves without traffic
    }
  }
  sampling_->warmed += touched.size();
}

void Gpu::charged(std::uint64_t cycles, std::uint64_t bound, std::uint64_t warp_instructions, std::uint64_t thread_instructions) {
  ++sampling_->extrapolated;
  sampling_->cycles += cycles;
  sampling_->bound += bound;
  sampling_->warp += warp_instructions;
  sampling_->thread += thread_instructions;
}

void Gpu::trace_launch(const std::string& kernel, core::Dim3 grid, core::Dim3 block, sim::Picoseconds started,
                       const std::string& extra) {
  sim::TxnTrace* trace = sim_.txn_trace();
  if (!trace) return;  // the trace's outline, below: kept past its event limit
  auto dims = [](core::Dim3 d) { return std::to_string(d.x) + "x" + std::to_string(d.y) + "x" + std::to_string(d.z); };
  trace->span(trace->track("GPU", "kernels"), kernel, started, sim::now_ps(),
              "{\"grid\":\"" + dims(grid) + "\",\"block\":\"" + dims(block) + "\",\"cycles\":" +
                  std::to_string(last_kernel_cycles_) + extra + "}",
              true);
}

sim::Picoseconds Gpu::launch_cost(const core::LaunchContext& ctx, const core::Dim3& grid) const {
  if (!ctx.from_device) return launch_overhead_;
  return device_launch_latency_ + device_block_latency_ * std::uint64_t{grid.x} * grid.y * grid.z;
}

std::optional<core::GridStats> Gpu::sample(core::LaunchContext& ctx, const core::ptx::Function& kernel, core::Dim3 grid,
                                           core::Dim3 block, const std::vector<std::uint8_t>& params,
                                           std::uint32_t dynamic_shared, std::size_t& cluster, std::uint64_t& work) {
  core::LaunchProfile profile(kernel, partitions_.front()->l2().line_size());
  std::string printed;
  const core::GridStats g = functional(ctx, kernel, grid, block, params, dynamic_shared, profile, Journal::open, nullptr, &printed);
  const auto written = static_cast<std::uint64_t>(
      std::count_if(profile.lines.begin(), profile.lines.end(), [](const auto& l) { return l.second.written; }));
  const KernelSampler::Signature signature{&kernel, grid, block, std::move(profile.per_pc), profile.lines.size(),
                                           profile.touches, written};
  work = signature.warp_instructions();
  const KernelSampler::Decision d = sampler_->decide(signature);
  cluster = d.cluster;
  if (d.timed) {
    store_.rollback_journal();
    return std::nullopt;
  }
  store_.commit_journal();
  if (!printed.empty() && ctx.printf_out) ctx.printf_out(printed);
  warm_l2(profile);
  // The host's launch cost, then the cluster's charge as simulated time inside the kernel.
  wait(sc_core::sc_time(static_cast<double>(launch_cost(ctx, grid)), sc_core::SC_PS));
  ++kernels_;
  sim_.snapshot("kernel " + std::to_string(kernels_ - 1) + ": " + kernel.name + " start");
  const sim::Picoseconds started = sim::now_ps();
  const KernelSampler::Estimate e = sampler_->estimate(cluster, work);
  wait(sc_core::sc_time(static_cast<double>(sim_.clock("core").domain().time_of(e.cycles)), sc_core::SC_PS));
  last_kernel_cycles_ = e.cycles;
  kernel_cycles_ += e.cycles;
  charged(e.cycles, e.bound, work, profile.threads);
  trace_launch(kernel.name, grid, block, started, ",\"extrapolated\":true");
  sim_.snapshot("kernel " + std::to_string(kernels_ - 1) + ": " + kernel.name);
  return g;
}

core::GridStats Gpu::launch_with_plan(core::LaunchContext& ctx, const core::ptx::Function& kernel, core::Dim3 grid,
                                      core::Dim3 block, const std::vector<std::uint8_t>& params, std::uint32_t dynamic_shared,
                                      const core::ptx::Resources& resources, const runtime::CtaPlan& plan,
                                      const std::vector<std::uint64_t>& arrays) {
  if (!scheduler_->expect(&plan, arrays))
    throw Error("launch of " + kernel.name + " with a CTA plan (block dependencies): the GPU's CTA scheduler (gpu.cta_scheduler: " +
                    sim_.config().get_string("gpu.cta_scheduler") + ") does not take it; it needs " + plan.needs,
                Error::Kind::usage);
  struct Forget {  // the plan is this launch's only, however it ends
    CtaScheduler& s;
    ~Forget() { s.expect(nullptr, {}); }
  } forget{*scheduler_};
  return run(ctx, kernel, grid, block, params, dynamic_shared, resources, &plan.order);
}

void Gpu::attach_sm_units(const std::string& route,
                          const std::function<std::unique_ptr<core::SmUnit>(core::Sm&)>& make, bool observe) {
  for (auto& sm : sms_) {
    units_.push_back(make(*sm));
    sm->attach(route, *units_.back());
    if (observe) sm->observe(*units_.back());
  }
}

void Gpu::set_cta_scheduler(std::unique_ptr<CtaScheduler> s) {
  if (current_) throw std::logic_error("Gpu::set_cta_scheduler while a kernel runs");
  scheduler_ = std::move(s);
}

void Gpu::cta_finished(std::uint64_t cta) {
  if (!current_) return;
  sim_.note_progress();
  if (waves_ && !waves_->settled && current_->finished_ctas % waves_->wave == 0) {
    waves_->marks.emplace_back(current_->ctx.cycle(), current_->warp_instructions);
    waves_->settled = sampler_->settled(waves_->marks, waves_->work, current_->next_cta);
  }
  const bool stopped = waves_ && waves_->settled;  // no more CTAs start: those running finish
  if (!stopped) scheduler_->finished(*current_, cta, sms_);
  if (current_->finished_ctas == (stopped ? current_->next_cta : current_->ctas()))
    sim::notify_after(done_);  // from a step, maybe run ahead
}

void Gpu::copy(std::uint64_t bytes) {
  copied_bytes_ += bytes;
  if (copy_bandwidth_ > 0) wait(sc_core::sc_time(static_cast<double>(bytes) / copy_bandwidth_, sc_core::SC_SEC));
}

std::vector<std::string> Gpu::outstanding() const {
  if (!current_) return {};
  std::vector<std::string> v{"kernel " + current_->kernel->name + ": " +
                             std::to_string(current_->ctas() - current_->finished_ctas) + " CTAs not finished"};
  for (auto& s : scheduler_->outstanding()) v.push_back("CTA scheduler: " + s);
  return v;
}

}  // namespace irr::gpu
