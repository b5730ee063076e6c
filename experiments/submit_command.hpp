#pragma once
// `dpclust submit` (a sweep as a batch job array with a merge job) and `dpclust status` (how far the
// experiments under a results directory are, across shards).
namespace dpclust::cli {
int cmd_submit(int argc, char** argv);
int cmd_status(int argc, char** argv);
}  // namespace dpclust::cli
