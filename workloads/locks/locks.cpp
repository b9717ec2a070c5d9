// SPDX-License-Identifier: Apache-2.0
#include "workloads/locks/locks.h"

#include <algorithm>

#include "sim/error.h"
#include "sim/hash.h"
#include "workloads/runner.h"

namespace irr::workloads::locks {
namespace {

// A host driver's runner over locks.ptx (workloads/runner.h), with the buffers these drivers use.
struct Run : Runner {
  explicit Run(Device& dev) : Runner(dev, "locks.ptx") {}
  std::uint64_t upload(const std::vector<std::int32_t>& v) {
    const std::uint64_t p = d.malloc(std::max<std::size_t>(1, v.size()) * 4);
    d.memcpy_to_device(p, v.data(), v.size() * 4);
    return p;
  }
  std::uint64_t zeros(std::uint64_t bytes) {
    const std::uint64_t p = d.malloc(std::max<std::uint64_t>(1, bytes));
    d.memset(p, 0, bytes);
    return p;
  }
  // The servers must all be resident with room for a client (they run until the clients end).
  void check_servers(const std::string& kernel, const Options& o) {
    const std::uint64_t blocks = resident(kernel);
    if (o.servers >= blocks)
      throw Error(kernel + ": " + std::to_string(o.servers) + " server blocks, but the device runs " +
                      std::to_string(blocks) + " blocks at once: the servers must leave room for a client",
                  Error::Kind::usage);
  }
  void launch_blocks(const std::string& kernel, std::uint32_t blocks, const Args& args) { launch(kernel, blocks * kBlock, args); }
  Outcome outcome(std::string error) const { return {std::move(error), r.launches, r.warp_instructions, r.thread_instructions}; }
};

// Bytes of a delegated kernel's metadata block (locks.cu): per channel and server a reservation
// counter, a read counter and a bit a slot; then two counters.
constexpr std::uint64_t kSlots = 4096;  // message slots per server and channel (locks.cu CAP)
std::uint64_t metadata(std::uint64_t channels, std::uint64_t servers) {
  return (channels * servers * (2 + kSlots / 32) + 2) * 4;
}

// Table 4.2's latency from the instrumented kernels' stamps: an entry's sections in the order they
// took its lock (they do not overlap), each acquire after the first against the release before it.
std::vector<std::pair<std::string, std::uint64_t>> handoff(const std::vector<std::int32_t>& keys, const std::vector<std::uint64_t>& acquired,
                                                           const std::vector<std::uint64_t>& released) {
  std::vector<std::size_t> order(keys.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return keys[a] != keys[b] ? keys[a] < keys[b] : acquired[a] < acquired[b];
  });
  std::uint64_t sum = 0, count = 0, held = 0;
  for (std::size_t i = 0; i < order.size(); ++i) held += released[i] - acquired[i];
  for (std::size_t j = 1; j < order.size(); ++j) {
    const std::size_t prev = order[j - 1], cur = order[j];
    if (keys[prev] != keys[cur]) continue;
    if (acquired[cur] < released[prev]) throw Error("ht: items " + std::to_string(prev) + " and " + std::to_string(cur) +
                                                    " held entry " + std::to_string(keys[cur]) + "'s lock at once");
    sum += acquired[cur] - released[prev];
    ++count;
  }
  return {{"handoffs", count}, {"handoff_cycles_mean", count ? sum / count : 0},
          {"section_cycles_mean", order.empty() ? 0 : held / order.size()}};
}

Outcome hash_table(Device& d, const std::string& variant, const Options& o) {
  const std::vector<std::int32_t> k = keys(o);
  Run run(d);
  const std::uint64_t key = run.upload(k), heads = run.upload(std::vector<std::int32_t>(o.collisions, -1)),
                      next = run.zeros(o.items * 4ull);
  const std::uint32_t client_blocks = (o.items + kBlock - 1) / kBlock;
  const auto n = static_cast<std::int32_t>(o.items);
  if (o.handoff && !d.resident_blocks(d.kernel(run.module, "ht_global"), Dim3{kBlock}))
    throw Error("ht: --handoff needs the timed GPU (--mode timing): functionally %clock64 counts a warp's instructions",
                Error::Kind::usage);
  // The hand-off kernels take two more buffers: the cycle each item took its lock and released it.
  const std::string suffix = o.handoff ? "_handoff" : "";
  const std::uint64_t acquired = o.handoff ? run.zeros(o.items * 8ull) : 0, released = o.handoff ? run.zeros(o.items * 8ull) : 0;
  const auto measured = [&](Args a) { return o.handoff ? a << acquired << released : a; };
  if (variant == "global") {
    const std::uint64_t locks = run.zeros(o.collisions * 4ull);
    run.launch_blocks("ht_global" + suffix, client_blocks, measured(Args() << key << n << heads << next << locks));
  } else {
    run.check_servers("ht_delegated", o);
    const std::uint64_t msgs = run.zeros(o.servers * kSlots * 8), meta = run.zeros(metadata(1, o.servers));
    run.launch_blocks("ht_delegated" + suffix, o.servers + client_blocks,
                      measured(Args() << key << n << heads << next << msgs << meta << o.servers));
  }
  Outcome out = run.outcome(check_lists(k, run.download<std::int32_t>(heads, o.collisions), run.download<std::int32_t>(next, o.items)));
  if (o.handoff)
    out.counters = handoff(k, run.download<std::uint64_t>(acquired, o.items), run.download<std::uint64_t>(released, o.items));
  return out;
}

Outcome bank_transfers(Device& d, const std::string& variant, const Options& o) {
  if (o.collisions < 2) throw Error("atm: a transfer needs two accounts (--collisions 2 or more)", Error::Kind::usage);
  if (o.handoff) throw Error("atm: --handoff is measured for ht only", Error::Kind::usage);
  const Transfers t = transfers(o);
  Run run(d);
  const std::uint64_t from = run.upload(t.from), to = run.upload(t.to), amount = run.upload(t.amount),
                      balance = run.zeros(o.collisions * 4ull);
  const std::uint32_t client_blocks = (o.items + kBlock - 1) / kBlock;
  const auto n = static_cast<std::int32_t>(o.items);
  if (variant == "global") {
    const std::uint64_t locks = run.zeros(o.collisions * 4ull);
    run.launch_blocks("atm_global", client_blocks, Args() << from << to << amount << n << balance << locks);
  } else {
    // A server's request ring must hold every request that can be outstanding at once (locks.cu).
    if (o.servers > 32) throw Error("atm/delegated: at most 32 server blocks (each server's 4,096 request slots hold "
                                    "one request a follower lane of every server)", Error::Kind::usage);
    run.check_servers("atm_delegated", o);
    const std::uint64_t s = o.servers * kSlots;
    const std::uint64_t offloads = run.zeros(s * 16), requests = run.zeros(s * 8), replies = run.zeros(s * 4),
                        unlocks = run.zeros(s * 4), meta = run.zeros(metadata(4, o.servers));
    run.launch_blocks("atm_delegated", o.servers + client_blocks,
               Args() << from << to << amount << n << balance << offloads << requests << replies << unlocks << meta
                      << o.servers);
  }
  return run.outcome(check_balances(t, run.download<std::int32_t>(balance, o.collisions)));
}

}  // namespace

const std::vector<std::pair<std::string, std::string>>& variants() {
  static const std::vector<std::pair<std::string, std::string>> v = {
      {"global", "spin locks in global memory around each critical section (Listing 4.1)"},
      {"delegated", "critical sections sent as messages to server blocks holding scratchpad locks (Listing 4.2)"}};
  return v;
}

const std::vector<Benchmark>& benchmarks() {
  static const std::vector<Benchmark> b = {
      {"ht", "hash table: each item pushed onto its entry's linked list under the entry's lock (HT, §3.5)", hash_table},
      {"atm", "bank transfers: each item moves an amount between two accounts under both accounts' locks, the "
              "lower first (ATM, two nested locks, §3.4-3.5)", bank_transfers}};
  return b;
}

const Benchmark* find(const std::string& name) {
  for (const auto& b : benchmarks())
    if (b.name == name) return &b;
  return nullptr;
}

std::vector<std::int32_t> keys(const Options& o) {
  std::vector<std::int32_t> k(o.items);
  for (std::uint32_t i = 0; i < o.items; ++i)
    k[i] = static_cast<std::int32_t>(sim::splitmix64(o.seed * 0x100000001b3ull + i) % o.collisions);
  return k;
}

Transfers transfers(const Options& o) {
  Transfers t;
  t.from = keys(o);
  for (std::uint32_t i = 0; i < o.items; ++i) {
    const std::uint64_t h = sim::splitmix64(o.seed * 0x100000001b3ull + i + (1ull << 40));
    t.to.push_back(static_cast<std::int32_t>((t.from[i] + 1 + h % (o.collisions - 1)) % o.collisions));
    t.amount.push_back(static_cast<std::int32_t>(1 + (h >> 32) % 100));
  }
  return t;
}

std::string check_balances(const Transfers& t, const std::vector<std::int32_t>& balance) {
  std::vector<std::int64_t> want(balance.size());
  for (std::size_t i = 0; i < t.from.size(); ++i) {
    want[static_cast<std::size_t>(t.from[i])] -= t.amount[i];
    want[static_cast<std::size_t>(t.to[i])] += t.amount[i];
  }
  for (std::size_t a = 0; a < balance.size(); ++a)
    if (balance[a] != want[a])
      return "account " + std::to_string(a) + " holds " + std::to_string(balance[a]) + ", not " + std::to_string(want[a]) +
             ": a transfer was lost or torn";
  return "";
}

std::string check_lists(const std::vector<std::int32_t>& keys, const std::vector<std::int32_t>& heads,
                        const std::vector<std::int32_t>& next) {
  std::vector<bool> seen(keys.size());
  for (std::size_t e = 0; e < heads.size(); ++e) {
    for (std::int32_t i = heads[e]; i != -1; i = next[static_cast<std::size_t>(i)]) {
      if (i < 0 || static_cast<std::size_t>(i) >= keys.size())
        return "entry " + std::to_string(e) + " links to " + std::to_string(i) + ", no item";
      if (seen[static_cast<std::size_t>(i)])
        return "item " + std::to_string(i) + " is linked twice (entry " + std::to_string(e) + ")";
      if (keys[static_cast<std::size_t>(i)] != static_cast<std::int32_t>(e))
        return "item " + std::to_string(i) + " with key " + std::to_string(keys[static_cast<std::size_t>(i)]) +
               " is in entry " + std::to_string(e);
      seen[static_cast<std::size_t>(i)] = true;  // a cycle comes back to a seen item
    }
  }
  for (std::size_t i = 0; i < keys.size(); ++i)
    if (!seen[i]) return "item " + std::to_string(i) + " (key " + std::to_string(keys[i]) + ") is in no list: an insert was lost";
  return "";
}

}  // namespace irr::workloads::locks
