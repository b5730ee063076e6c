#pragma once
// `dpclust run` (every config checked first, then each experiment's cells, resumable, sharded) and
// `dpclust validate` (every problem of every config, without running).
namespace dpclust::cli {
int cmd_run(int argc, char** argv);
int cmd_validate(int argc, char** argv);
}  // namespace dpclust::cli
