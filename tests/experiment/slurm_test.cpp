// `dpclust submit` on a real Slurm: Debian's slurmctld + slurmd and munge, one node on 127.0.0.1, set
// up and torn down by tests/slurm/local_slurm.sh in a temporary folder. The array of shard tasks and the
// merge job that depends on it run for real; the merged results.json must equal an unsharded run's
// number for number. Skips, with the script's reason, where Slurm is not installed or cannot start
// (not root, no munge); `./run_all.sh --test` installs slurm-wlm and munge, so CI runs it.
#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <regex>
#include <thread>

#include "core/files.hpp"
#include "run/runner.hpp"
#include "test_support.hpp"

using namespace dpclust;
namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

std::string binary() {
  const char* b = std::getenv("DPCLUST_BINARY");
  return b ? b : DPCLUST_BINARY_PATH;
}

// A TCP port on 127.0.0.1 that is free now (the kernel's choice for port 0).
int free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = 0;
  socklen_t len = sizeof a;
  int port = -1;
  if (fd >= 0 && ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0)
    port = ntohs(a.sin_port);
  if (fd >= 0) ::close(fd);
  return port;
}

class LocalSlurm : public ::testing::Test {
 protected:
  void SetUp() override {
    // One local cluster at a time (ctest -j runs the two tests of this file in parallel otherwise).
    lock_fd_ = ::open("/tmp/dpclust-local-slurm.lock", O_CREAT | O_RDWR | O_CLOEXEC, 0666);
    if (lock_fd_ >= 0) ::flock(lock_fd_, LOCK_EX);
    dir_ = dpclust::testing::temp_dir("slurm");
    // Slurm's and munge's Unix sockets live in the state folder and must fit in 108 bytes: a short path.
    char short_dir[] = "/tmp/dpslurm.XXXXXX";
    ASSERT_NE(::mkdtemp(short_dir), nullptr);
    state_ = short_dir;
    int p1 = free_port(), p2 = free_port();
    while (p2 == p1) p2 = free_port();
    const auto r = dpclust::testing::run_command(script() + " start " + state_.string() + " " + std::to_string(p1) +
                                                 " " + std::to_string(p2));
    started_ = r.code == 0;
    if (r.code == 77) GTEST_SKIP() << "no local Slurm here: " << r.output;
    ASSERT_EQ(r.code, 0) << r.output;
    env_ = "SLURM_CONF=" + (state_ / "slurm.conf").string() + " ";
  }
  void TearDown() override {
    if (started_) dpclust::testing::run_command(script() + " stop " + state_.string());
    std::error_code ec;
    if (!state_.empty()) fs::remove_all(state_, ec);
    if (lock_fd_ >= 0) ::close(lock_fd_);  // releases the flock
  }
  static std::string script() { return std::string(DPCLUST_TEST_SOURCE_DIR) + "/tests/slurm/local_slurm.sh"; }
  dpclust::testing::CommandResult slurm(const std::string& command) {
    return dpclust::testing::run_command(env_ + command);
  }
  // Waits until none of these jobs ("12,13") is queued any more; false after `seconds`.
  bool wait_until_gone(const std::string& jobs, double seconds) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < until) {
      const auto q = slurm("squeue -h -j " + jobs + " -o %i");
      if (q.code == 0 && q.output.find_first_not_of(" \n") == std::string::npos) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    return false;
  }

  fs::path dir_, state_;
  std::string env_;
  bool started_ = false;
  int lock_fd_ = -1;
};

// Twelve cells of unequal cost, three trials each: enough for a plan with three shards to matter.
const std::string kConfig = R"(experiment: slurm_sweep
seed: 5
trials: 3
datasets:
  - name: small
    generator: {type: blobs, n_samples: 400, centers: 3, seed: 4}
    bounds: [[-15, 15], [-15, 15]]
    params: {k: 3}
  - name: large
    generator: {type: moons, n_samples: 3000, noise: 0.06, seed: 9, scale: standard}
    bounds: [[-3, 3], [-3, 3]]
    params: {k: 2}
methods:
  - method: dbscan
    params: {alpha: [0.2, 0.4], min_pts: 5}
  - method: dp_dbscan
    params: {epsilon: [0.5, 1], alpha: 0.3, min_pts: 5}
  - method: kmeans
    params: {n_init: [1, 3]}
metrics: [ari, ami, n_clusters]
)";

}  // namespace

TEST_F(LocalSlurm, SubmittedArrayAndMergeEqualAnUnshardedRun) {
  const fs::path cfg = dpclust::testing::write_file(dir_ / "sweep.yaml", kConfig);
  const fs::path out = dir_ / "out";
  const auto t0 = std::chrono::steady_clock::now();
  const auto sub =
      slurm(binary() + " submit " + cfg.string() + " --scheduler slurm --tasks 3 --time 10 --out " + out.string());
  ASSERT_EQ(sub.code, 0) << sub.output;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(sub.output, m, std::regex("array job (\\d+) \\(3 tasks\\), merge job (\\d+)")))
      << sub.output;
  const std::string array_job = m[1], merge_job = m[2];
  // Wait for the array and the merge job to leave the queue (a minute at most; seconds in practice).
  const bool gone = wait_until_gone(array_job + "," + merge_job, 120);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_TRUE(gone) << "jobs still queued after 120 s:\n"
                    << slurm("squeue").output << slurm("scontrol show job " + merge_job).output;
  // The merge job ran and succeeded: its log ends with the status table, all complete.
  const auto job = slurm("scontrol show job " + merge_job);
  EXPECT_NE(job.output.find("JobState=COMPLETED"), std::string::npos) << job.output;
  std::string merge_log;
  for (const auto& e : fs::directory_iterator(out / "slurm" / "logs"))
    if (e.path().filename().string().find("-merge.out") != std::string::npos) merge_log = read_text_file(e.path());
  EXPECT_NE(merge_log.find("1 of 1 experiments complete; cells: 12 of 12 done"), std::string::npos) << merge_log;

  // Every task ran its own shard of the same plan, on this node, recorded in the manifest.
  const json manifest = json::parse(read_text_file(out / "slurm_sweep" / "manifest.json"));
  std::set<std::string> shards, plans, jobs;
  for (const auto& r : manifest["runs"]) {
    if (r["shard"] == "1/1") continue;  // the merge does not run cells
    shards.insert(r["shard"].get<std::string>());
    plans.insert(r["shard_plan"].get<std::string>());
    jobs.insert(r.value("scheduler_job", ""));
    EXPECT_EQ(r["state"], "succeeded") << r.dump();
    EXPECT_NE(r["shard_source"].get<std::string>().find("SLURM_ARRAY_TASK_ID="), std::string::npos) << r.dump();
  }
  EXPECT_EQ(shards, (std::set<std::string>{"1/3", "2/3", "3/3"}));
  EXPECT_EQ(plans.size(), 1u);
  EXPECT_EQ(jobs.size(), 3u);

  // The numbers: identical to one unsharded run on this machine.
  const auto whole = dpclust::testing::run_command(binary() + " run " + cfg.string() + " --out " +
                                                   (dir_ / "whole").string() + " --no-progress");
  ASSERT_EQ(whole.code, 0) << whole.output;
  const json a = json::parse(read_text_file(out / "slurm_sweep" / "results.json"));
  const json b = json::parse(read_text_file(dir_ / "whole" / "slurm_sweep" / "results.json"));
  ASSERT_EQ(a["cells"].size(), 12u);
  EXPECT_EQ(strip_nondeterministic(a).dump(), strip_nondeterministic(b).dump());
  std::cout << "local Slurm: array job " << array_job << " (3 tasks) and merge job " << merge_job << " done in " << wall
            << " s; merged results.json equals the unsharded run (" << a["cells"].size() << " cells)\n";

  // Resubmitting is harmless: every cell is on disk, so the tasks find nothing to do.
  const auto again =
      slurm(binary() + " submit " + cfg.string() + " --scheduler slurm --tasks 3 --time 10 --out " + out.string());
  ASSERT_EQ(again.code, 0) << again.output;
  ASSERT_TRUE(std::regex_search(again.output, m, std::regex("array job (\\d+) \\(3 tasks\\), merge job (\\d+)")))
      << again.output;
  const std::string array2 = m[1], merge2 = m[2];
  ASSERT_TRUE(wait_until_gone(array2 + "," + merge2, 120));
  const std::string log = read_text_file(out / "slurm" / "logs" / (array2 + "_2.out"));
  EXPECT_NE(log.find("nothing to do"), std::string::npos) << log;
  EXPECT_EQ(strip_nondeterministic(json::parse(read_text_file(out / "slurm_sweep" / "results.json"))).dump(),
            strip_nondeterministic(b).dump());
}

TEST_F(LocalSlurm, AKilledTaskIsReportedAndItsResubmissionCompletesTheSweep) {
  // One expensive cell (k-means, 10 restarts on 200,000 points, three trials: seconds), which the plan by
  // cost puts alone on shard 1, and cheap ones on the others. Shard 1 is cancelled while it runs, as a
  // time limit would: its run record stays "running", the merge's dependency can never be satisfied.
  const std::string config = R"(experiment: killed
seed: 3
trials: 3
datasets:
  - name: big
    generator: {type: blobs, n_samples: 200000, centers: 4, seed: 2}
    params: {k: 4}
  - name: small
    generator: {type: blobs, n_samples: 300, centers: 3, seed: 4}
    params: {k: 3}
methods:
  - method: kmeans
    params: {n_init: 10}
metrics: [ari]
)";
  const fs::path cfg = dpclust::testing::write_file(dir_ / "killed.yaml", config);
  const fs::path out = dir_ / "out";
  const auto sub = slurm(binary() + " submit " + cfg.string() + " --scheduler slurm --tasks 2 --out " + out.string());
  ASSERT_EQ(sub.code, 0) << sub.output;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(sub.output, m, std::regex("array job (\\d+) \\(2 tasks\\), merge job (\\d+)")))
      << sub.output;
  const std::string array_job = m[1], merge_job = m[2];
  // Wait until task 1 runs and has recorded its run, then cancel it.
  bool running = false;
  for (int i = 0; i < 300 && !running; ++i) {
    const auto q = slurm("squeue -h -j " + array_job + "_1 -o %T");
    running = q.output.find("RUNNING") != std::string::npos && fs::exists(out / "killed" / "manifest.json") &&
              read_text_file(out / "killed" / "manifest.json").find("\"shard\": \"1/2\"") != std::string::npos;
    if (!running) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ASSERT_TRUE(running) << slurm("squeue").output;
  ASSERT_EQ(slurm("scancel --signal=KILL " + array_job + "_1").code, 0);
  ASSERT_TRUE(wait_until_gone(array_job, 120));
  // The merge never ran (afterok failed; kill_invalid_depend cancels it) and status names the shard.
  const auto merge = slurm("scontrol show job " + merge_job);
  EXPECT_EQ(merge.output.find("JobState=COMPLETED"), std::string::npos) << merge.output;
  const auto st = dpclust::testing::run_command(binary() + " status " + out.string());
  EXPECT_NE(st.output.find("shard 1/2 interrupted"), std::string::npos) << st.output;
  EXPECT_NE(st.output.find("incomplete"), std::string::npos) << st.output;
  EXPECT_EQ(dpclust::testing::run_command(binary() + " status " + out.string() + " --fail-if-incomplete").code, 1);
  std::cout << "after scancel of task 1 of array job " << array_job << ":\n" << st.output;
  // The command status prints resubmits exactly that task and the merge after it.
  std::smatch cmd;
  ASSERT_TRUE(std::regex_search(st.output, cmd, std::regex("\\n  (j=\\$\\(sbatch --parsable --array=1 [^\\n]+)\\n")))
      << st.output;
  const auto again = slurm("sh -c '" + cmd[1].str() + "'");
  ASSERT_EQ(again.code, 0) << again.output;
  ASSERT_TRUE(std::regex_search(again.output, m, std::regex("Submitted batch job (\\d+)"))) << again.output;
  const std::string merge2 = m[1];
  ASSERT_TRUE(wait_until_gone(merge2, 180));
  EXPECT_NE(slurm("scontrol show job " + merge2).output.find("JobState=COMPLETED"), std::string::npos);
  const auto done = dpclust::testing::run_command(binary() + " status " + out.string() + " --fail-if-incomplete");
  EXPECT_EQ(done.code, 0) << done.output;
  const auto whole = dpclust::testing::run_command(binary() + " run " + cfg.string() + " --out " +
                                                   (dir_ / "whole").string() + " --no-progress");
  ASSERT_EQ(whole.code, 0) << whole.output;
  EXPECT_EQ(strip_nondeterministic(json::parse(read_text_file(out / "killed" / "results.json"))).dump(),
            strip_nondeterministic(json::parse(read_text_file(dir_ / "whole" / "killed" / "results.json"))).dump());
}
