#pragma once
// `dpclust data list | fetch | verify`: the papers' datasets from their public sources.
namespace dpclust::cli {
int cmd_data(int argc, char** argv);
}
