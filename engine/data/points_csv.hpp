#pragma once
// A point set as CSV text in the layout of the shared synthetic data files (Circles, Moons, Blobs of
// the DP-DBSCAN evaluation), which numpy/pandas wrote as
//   x,y,label                      header: "x,y" for 2-D data, "x0,...,x{d-1}" otherwise; ",label"
//   0.40405553364610325,-0.72...,1   only when the dataset has labels
// Numbers are printed with C's "%.17g" (the shortest form that always round-trips a double, and
// byte-identical to Python's '%.17g' % v), labels as integers, lines end with "\n" (also the last).
#include <string>

#include "core/dataset.hpp"

namespace dpclust {

std::string points_csv_text(const Dataset& data);

}  // namespace dpclust
