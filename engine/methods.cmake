# The method folders, one line each: the folder under engine/ and, for a folder that is a room of its own (its own
# library), the rooms it links. A folder inside another room (cluster/*) is built with that room.
#
# Everything else about a method is found from this list and the folder (docs/design.md, "Adding a method"):
#   - the folder's library (engine/CMakeLists.txt) and its place in the layering check;
#   - its registration: the folder's register.cpp defines `MethodFolder <folder>_folder()` ('/' read as '_'), which
#     the catalog calls in this list's order (a generated table, catalog/method_folders.inc); the order is that of
#     `dpclust list` and of the generated docs;
#   - its tests: tests/<room>/*_test.cpp, one test program per room (tests/CMakeLists.txt);
#   - its cost estimate (MethodInfo::cost) and its Python estimator (MethodInfo::python_estimator), set in
#     register.cpp; tests/experiment/method_folders_test.cpp fails when a listed method lacks either, or its entry
#     in docs/methods.md.
set(DPCLUST_METHOD_FOLDERS
  "cluster/dbscan"
  "cluster/kmeans"
  "cluster/uniform_centres"
  "wavecluster: core privacy metrics"
  "dpdbscan: core privacy cluster metrics"
  "ndlaplace: core privacy cluster metrics data"
  "cluster/affinity"
  "drbt: core cluster metrics data"
  "dpm: core privacy"
  "eugkm: core privacy cluster dpdbscan"
  "lsh_clustering: core privacy cluster"
  "fastlloyd: core privacy cluster"
  "hst_clustering: core privacy metrics"
)
