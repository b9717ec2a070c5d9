// SPDX-License-Identifier: Apache-2.0
// libsystemc (which the framework library links) refers to sc_main; the fuzz targets never start
// a simulation.
extern "C" int sc_main(int, char**) { return 1; }
