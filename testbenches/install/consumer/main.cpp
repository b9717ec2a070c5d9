// SPDX-License-Identifier: Apache-2.0
// Runs the example model from a user program: configuration, simulation, statistics.
#include <iostream>

#include "models/example/pipeline.h"
#include "sim/simulation.h"

int sc_main(int, char**) {
  try {
    irr::sim::Config config(irr::sim::Schema::builtin());
    config.load("kim4x16");
    config.set("example.requests=100");
    irr::sim::Simulation sim(std::move(config));
    irr::example::Pipeline top("example", sim);
    sim.run();
    std::cout << "completed " << sim.stats().find("example.server.completed")->value() << "\n";
    return 0;
  } catch (const irr::Error& e) {
    std::cerr << e.what() << "\n";
    return e.exit_code();
  }
}
