// SPDX-License-Identifier: GPL-2.0
//
// rdma_oracle's command line (oracle_cli.cpp).
#pragma once

#include "oracle.h"

#include <string>

namespace oracle {

// Fills @o from the command line; usage errors exit 2.
void parse(int argc, char **argv, Options &o);
// The op names of @ops, comma-separated.
std::string ops_str(uint32_t ops);
// Every op transport @qpt has.
uint32_t default_ops(int qpt);
// What is wrong with a complete configuration ("" if nothing).
std::string config_problem(const Config &c);

} // namespace oracle
