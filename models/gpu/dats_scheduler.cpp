// SPDX-License-Identifier: Apache-2.0
#include "models/gpu/dats_scheduler.h"

#include "models/dats/host_api.h"
#include "models/power/energy.h"

#include "sim/error.h"

namespace irr::gpu {

using dats::Dgb;
using dats::Policy;

namespace {

dats::DgbParams params(const sim::Config& c) {
  dats::DgbParams p;
  p.lna = static_cast<std::uint32_t>(c.get_uint("dats.lna_entries"));
  p.lea = static_cast<std::uint32_t>(c.get_uint("dats.lea_entries"));
  p.pub = static_cast<std::uint32_t>(c.get_uint("dats.pub_entries"));
  p.chunk = static_cast<std::uint32_t>(c.get_uint("dats.chunk_nodes"));
  p.reserve_pub = c.get_bool("dats.pub_reservation");
  return p;
}

// A high-water mark kept in a counter.
void raise_to(sim::Counter& c, std::uint64_t v) {
  if (v > c.count()) c += v - c.count();
}

unsigned bits(std::uint64_t n) {  // probe width for values 0..n
  unsigned b = 1;
  while (b < 64 && (n >> b)) ++b;
  return b;
}

}  // namespace

DatsCtaScheduler::DatsCtaScheduler(const sc_core::sc_module_name& name, sim::Simulation& sim, FrontEndPort& memory)
    : sc_core::sc_module(name),
      memory_(memory),
      params_(params(sim.config())),
      policy_key_(sim.config().get_string("dats.policy")),
      bound_key_(static_cast<std::uint32_t>(sim.config().get_uint("dats.level_bound"))),
      nst_rtl_(sim.config().get_string("dats.nst.impl") == "rtl"),
      by_dependency_(sim.config().get_string("dats.admission") == "dependency"),
      instant_loader_(sim.config().get_string("dats.loader") == "instant"),
      nst_params_{params_.lna, params_.lea, params_.pub},
      seed_(sim.config().get_uint("sim.seed")),
      launches_(sim.counter(*this, "launches", "launches with block dependencies", "launches")),
      chunk_reads_(sim.counter(*this, "chunk_reads", "node-array chunk reads (one 128-byte request each, two when unaligned)", "reads")),
      edge_reads_(sim.counter(*this, "edge_reads", "edge-array reads (the lines a node's children span beyond the buffered one)", "reads")),
      nodes_loaded_(sim.counter(*this, "nodes_loaded", "nodes inserted into the LNA", "nodes")),
      nib_parks_(sim.counter(*this, "nib_parks", "nodes parked in the NIB (slot held or edges not fitting)", "events")),
      pub_parked_(sim.counter(*this, "pub_updates", "parent-count decrements parked in the PUB", "updates")),
      blocked_completions_(sim.counter(*this, "blocked_completions", "completions deferred for PUB room", "events")),
      pub_high_(sim.counter(*this, "pub_high_water", "most PUB entries in use at once", "entries")),
      level_range_high_(sim.counter(*this, "level_range_high_water", "widest level range (max - min) of running blocks", "levels")),
      load_wait_cycles_(sim.counter(*this, "load_wait_cycles",
                                    "cycles an SM had room and no node was schedulable while the buffer was loading", "cycles")),
      lna_head_(sim.probe(*this, "lna_head", bits(params_.lna), "LNA head pointer (the next node's slot)")),
      lna_tail_(sim.probe(*this, "lna_tail", bits(params_.lna), "LNA tail pointer (the oldest valid slot)")),
      lea_head_(sim.probe(*this, "lea_head", bits(params_.lea), "LEA head pointer")),
      lea_tail_(sim.probe(*this, "lea_tail", bits(params_.lea), "LEA tail pointer")),
      pub_probe_(sim.probe(*this, "pub_entries", bits(params_.pub), "PUB entries in use")),
      level_lo_(sim.probe(*this, "level_min", 16, "lowest level of a running block")),
      level_hi_(sim.probe(*this, "level_max", 16, "highest level of a running block")),
      running_probe_(sim.probe(*this, "running", 16, "blocks running")) {
  for (std::uint32_t i = 0; i < params_.lna; ++i)
    state_probes_.push_back(&sim.probe(*this, "nst.slot" + std::to_string(i), 2,
                                       "node state of LNA slot " + std::to_string(i) +
                                           ": 0 empty or done, 1 waiting, 2 ready, 3 processing"));
  if (nst_rtl_) dats::make_nst_block("rtl", nst_params_);  // a missing build is an error now, not at the launch
  if (sim.config().get_bool("power.enabled")) {
    // The DGB's arrays for the energy model [W L452]: 8-byte NST rows, 2-byte LEA and PUB entries.
    auto& stats = sim.stats();
    const std::string n = std::string(this->name()) + ".energy_events.";
    auto count = [&](const char* what, std::uint64_t Dgb::Accesses::*field, const char* desc) -> const sim::Stat* {
      return &stats.formula(n + what, desc, "accesses", [this, field] {
        return static_cast<double>(accesses_.*field + (dgb_ ? dgb_->accesses().*field : 0));
      });
    };
    power::declare_array(sim, this->name(), {"nst", static_cast<double>(params_.lna), 64},
                         {{count("nst", &Dgb::Accesses::nst, "Node State Table row reads and writes"), 1}});
    power::declare_array(sim, this->name(), {"lea", static_cast<double>(params_.lea), 16},
                         {{count("lea", &Dgb::Accesses::lea, "Local Edge Array reads and writes"), 1}});
    power::declare_array(sim, this->name(), {"pub", static_cast<double>(params_.pub), 16},
                         {{count("pub", &Dgb::Accesses::pub, "Pending Update Buffer searches and writes"), 1}});
  }
  sim.clock("core").add(*this);
}

void DatsCtaScheduler::retire_dgb() {  // its accesses kept for the energy model
  if (!dgb_) return;
  accesses_.nst += dgb_->accesses().nst;
  accesses_.lea += dgb_->accesses().lea;
  accesses_.pub += dgb_->accesses().pub;
  dgb_.reset();
}

bool DatsCtaScheduler::expect(const runtime::CtaPlan* plan, const std::vector<std::uint64_t>& arrays) {
  const auto* p = dynamic_cast<const dats::DependencyPlan*>(plan);
  if (plan && !p) return false;
  if (p && k_) throw std::logic_error("DatsCtaScheduler::expect while a launch runs");
  const dats::DependencyGraph* g = p ? &p->graph : nullptr;
  graph_ = g;
  node_array_ = p ? arrays.at(0) : 0;
  edge_array_ = p ? arrays.at(1) : 0;
  if (!g) {
    k_ = nullptr;
    sms_ = nullptr;
    retire_dgb();
  }
  return true;
}

void DatsCtaScheduler::dispatch(core::KernelLaunch& k, std::vector<std::unique_ptr<core::Sm>>& sms) {
  if (!graph_) return plain_.dispatch(k, sms);
  if (k_) return;  // started already; blocks go out from tick()
  if (graph_->nodes() != k.ctas())
    throw std::logic_error("dats: a dependency graph of " + std::to_string(graph_->nodes()) + " nodes for " +
                           std::to_string(k.ctas()) + " CTAs");
  k_ = &k;
  sms_ = &sms;
  ++launches_;
  policy_ = graph_->policy;
  bound_ = graph_->policy == Policy::lvl && graph_->bound ? graph_->bound : bound_key_;
  if (policy_key_ == "lrr") policy_ = Policy::lrr;
  if (policy_key_ == "lvl") policy_ = Policy::lvl, bound_ = bound_key_;
  if (policy_key_ == "in_order") policy_ = Policy::in_order;
  if (policy_ != Policy::in_order) {
    retire_dgb();
    dgb_ = std::make_unique<Dgb>(*graph_, params_);
    if (nst_rtl_) dgb_->attach_rtl(dats::make_nst_block("rtl", nst_params_, seed_ + launches_.count()));
  }
  unfinished_parents_ = graph_->parents;
  started_.assign(graph_->nodes(), 0);
  blocked_.clear();
  load_ = Load::idle;
  edge_line_.reset();
  next_in_order_ = 0;
  admitted_.clear();
  capacity_ = 0;
  for (const auto& sm : sms) capacity_ += sm->max_resident(k);
  running_ = 0;
  load_wait_since_.reset();
  wake();
}

void DatsCtaScheduler::finished(core::KernelLaunch& k, std::uint64_t cta, std::vector<std::unique_ptr<core::Sm>>& sms) {
  if (!k_) return plain_.finished(k, cta, sms);
  const std::uint32_t v = graph_->vid.at(cta);
  --running_;
  for (std::uint32_t e = graph_->edge_start[v]; e < graph_->edge_start[v + 1]; ++e) --unfinished_parents_[graph_->edges[e]];
  if (dgb_) {
    if (!blocked_.empty() || !dgb_->complete(v)) {
      blocked_.push_back(v);
      ++blocked_completions_;
    } else {
      note_complete(v);
    }
  }
  wake();
}

void DatsCtaScheduler::note_complete(std::uint32_t v) {
  for (std::uint32_t e = graph_->edge_start[v]; e < graph_->edge_start[v + 1]; ++e)
    if (!dgb_->resident(graph_->edges[e])) ++pub_parked_;
  raise_to(pub_high_, dgb_->pub_high_water());
}

// The loader: a chunk of node entries, then each node's edge lines, then the insertion; a node
// that does not fit goes to the NIB and loading halts behind it [W L324-L328, L384]. An instant
// loader takes every step it can in this cycle.
void DatsCtaScheduler::load_step() {
  if (!instant_loader_) return load_one();
  std::uint64_t loaded;
  do {
    loaded = nodes_loaded_.count();
    load_one();
  } while (nodes_loaded_.count() != loaded);
}

void DatsCtaScheduler::read(std::uint64_t address, std::uint64_t bytes, std::function<void()> then) {
  if (instant_loader_) return then();
  memory_.read(address, bytes, [this, then = std::move(then)] {
    then();
    wake();
  });
}

void DatsCtaScheduler::load_one() {
  if (load_ != Load::idle) return;
  if (const auto nib = dgb_->nib()) {  // its entry is on chip already; its edges are not
    if (!dgb_->fits(*nib)) return;
    cur_ = *nib;
    end_ = *nib + 1;
    return continue_chunk();
  }
  const auto chunk = dgb_->chunk_wanted();
  if (!chunk) return;
  load_ = Load::chunk;
  std::tie(cur_, end_) = *chunk;
  ++chunk_reads_;
  read(node_array_ + std::uint64_t{cur_} * dats::kNodeEntryBytes, std::uint64_t{end_ - cur_} * dats::kNodeEntryBytes,
       [this] { continue_chunk(); });
}

void DatsCtaScheduler::continue_chunk() {
  load_ = Load::idle;
  for (; cur_ < end_; ++cur_) {
    if (!dgb_->fits(cur_)) {  // the transfer terminates; the rest of the chunk is read again later
      dgb_->park(cur_);
      ++nib_parks_;
      return;
    }
    const std::uint64_t n = graph_->children(cur_);
    if (n) {
      const std::uint64_t begin = edge_array_ + std::uint64_t{graph_->edge_start[cur_]} * params_.edge_bytes;
      const std::uint64_t end = begin + n * params_.edge_bytes;
      const std::uint64_t first = begin / 128 * 128, last = (end - 1) / 128 * 128;
      const std::uint64_t from = edge_line_ && *edge_line_ >= first ? *edge_line_ + 128 : first;
      edge_line_ = last;
      if (from <= last) {
        load_ = Load::edges;
        ++edge_reads_;
        read(from, last + 128 - from, [this] {
          dgb_->insert(cur_);
          ++nodes_loaded_;
          ++cur_;
          continue_chunk();
        });
        return;
      }
    }
    dgb_->insert(cur_);
    ++nodes_loaded_;
  }
}

bool DatsCtaScheduler::start(std::uint32_t v) {
  auto& sms = *sms_;
  for (std::size_t tried = 0; tried < sms.size(); ++tried) {
    core::Sm& sm = *sms[next_sm_];
    next_sm_ = (next_sm_ + 1) % sms.size();
    if (!sm.fits(*k_)) continue;
    if (started_[v] || unfinished_parents_[v])
      throw std::logic_error("dats invariant: " + graph_->name(v) + (started_[v] ? " started twice" : " started before its parents finished"));
    started_[v] = 1;
    ++running_;
    sm.start_cta(*k_, graph_->block[v]);
    return true;
  }
  return false;
}

DatsCtaScheduler::Issue DatsCtaScheduler::issue_one(Policy policy, std::uint32_t bound) {
  if (policy == Policy::in_order) {
    // Admitted in launch order while the GPU has room for one more resident block (an admitted
    // block waits in its slot, as a block spinning on its parents' flags would); started once
    // its parents finished.
    if (next_in_order_ < graph_->nodes() && running_ + admitted_.size() < capacity_) {
      const auto i = next_in_order_++;
      admitted_.push_back(by_dependency_ ? static_cast<std::uint32_t>(i) : graph_->vid[i]);
      return Issue::issued;
    }
    for (auto it = admitted_.begin(); it != admitted_.end(); ++it)
      if (!unfinished_parents_[*it] && start(*it)) {
        admitted_.erase(it);
        return Issue::issued;
      }
    return Issue::none_ready;
  }
  const auto v = dgb_->pick(policy, bound);
  if (!v) return Issue::none_ready;
  if (!start(*v)) return Issue::no_room;
  dgb_->issue(*v);
  return Issue::issued;
}

bool DatsCtaScheduler::tick(sim::Cycle c) {
  if (!k_) return false;
  if (dgb_) {
    while (!blocked_.empty() && dgb_->complete(blocked_.front())) {
      note_complete(blocked_.front());
      blocked_.pop_front();
    }
    load_step();
  }
  Issue last;
  while ((last = issue_one(policy_, bound_)) == Issue::issued) {
  }
  // Cycles lost to loading: an SM with room, blocks left, none schedulable, the loader busy.
  const bool waiting = dgb_ && last == Issue::none_ready && load_ != Load::idle && !dgb_->finished() &&
                       std::any_of(sms_->begin(), sms_->end(), [this](const auto& sm) { return sm->fits(*k_); });
  if (waiting && !load_wait_since_) load_wait_since_ = c;
  if (!waiting && load_wait_since_) {
    load_wait_cycles_ += c - *load_wait_since_;
    load_wait_since_.reset();
  }
  update_probes();
  return false;  // replies and retiring blocks wake it
}

void DatsCtaScheduler::update_probes() {
  running_probe_.set(running_);
  if (!dgb_) return;
  lna_head_.set(dgb_->lna_head());
  lna_tail_.set(dgb_->lna_tail());
  lea_head_.set(dgb_->lea_head());
  lea_tail_.set(dgb_->lea_tail());
  pub_probe_.set(dgb_->pub().size());
  const auto [lo, hi] = dgb_->running_levels();
  level_lo_.set(std::min<std::uint32_t>(lo, 0xffff));
  level_hi_.set(std::min<std::uint32_t>(hi, 0xffff));
  if (running_) raise_to(level_range_high_, hi - lo);
  for (std::uint32_t i = 0; i < params_.lna; ++i) {
    const Dgb::Entry& e = dgb_->slot(i);
    state_probes_[i]->set(!e.valid() ? 0 : e.state == Dgb::State::waiting ? 1 : e.state == Dgb::State::ready ? 2 : 3);
  }
}

std::vector<std::string> DatsCtaScheduler::outstanding() const {
  if (!k_) return {};
  std::vector<std::string> v;
  if (policy_ == Policy::in_order) {
    for (auto b : admitted_)
      v.push_back(graph_->name(b) + " waits in launch order for " + std::to_string(unfinished_parents_[b]) + " parents");
    return v;
  }
  v = dgb_->waiting();
  if (load_ != Load::idle) v.push_back("the loader waits for a read of node " + std::to_string(cur_) + (load_ == Load::chunk ? "'s chunk" : "'s edges"));
  for (auto b : blocked_) v.push_back(graph_->name(b) + " finished; its completion waits for PUB room");
  return v;
}

}  // namespace irr::gpu
