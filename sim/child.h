// SPDX-License-Identifier: Apache-2.0
// Elaborations side by side: a SystemC kernel elaborates one model a process, so a program (or a
// test) that compares several configurations builds each in a child process and reads back what it
// measured as text.
#pragma once

#include <functional>
#include <string>

namespace irr::sim {

// Runs `f` in a forked child and returns the text it returned ("" if the child produced none: it
// threw, crashed or could not be started). The child ends with _exit, running no destructor of the
// parent's state.
std::string in_child_process(const std::function<std::string()>& f);

}  // namespace irr::sim
