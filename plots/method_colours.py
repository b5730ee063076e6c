"""One colour per method, the same in every figure: the generic figures (plot_results.py), the comparison figures
(plot_comparison.py) and the benchmark figures (benchmark_figures.py) all colour a series by `method_colour`.

A series is named by the config's `as:` name, else the method; the methods of the catalog have fixed colours below
(a method and its non-private counterpart in related hues: dp_kmeans / kmeans, dp_dbscan / dbscan), and any other
name (a Python method, an `as:` name) gets one from a second palette chosen by a checksum of the name, so it too is
the same in every figure and every run. Two unknown names may share a colour; the legend tells them apart.
"""
import zlib

# The catalog's methods (`dpclust list`): matplotlib's tab10/tab20 colours, one each.
KNOWN = {
    # k-means family and its references
    "kmeans": "#1f77b4",
    "dp_kmeans": "#aec7e8",
    "eugkm": "#2ca02c",
    "hybrid_kmeans": "#98df8a",
    "lsh_clustering": "#9467bd",
    "dpm": "#d62728",
    "fastlloyd": "#e7298a",
    "hst_clustering": "#1b9e77",
    "uniform_centres": "#7f7f7f",
    # DBSCAN family
    "dbscan": "#ff7f0e",
    "dp_dbscan": "#ffbb78",
    "dp_dbscan_pairwise": "#c49c94",
    # WaveCluster family
    "wavecluster": "#8c564b",
    "baseline": "#bcbd22",
    "privqt": "#e377c2",
    "privthr": "#f7b6d2",
    "privthr_em": "#dbdb8d",
    # the others
    "nd_laplace": "#17becf",
    "drbt": "#9edae5",
    "affinity_propagation": "#c5b0d5",
}

# For names not above: colours none of KNOWN uses, and none close to one of them (no second purple beside
# lsh_clustering's, no blue beside kmeans' and dp_kmeans'), so that a Python method or an `as:` variant is told
# apart from the catalog's methods at a glance.
OTHERS = ["#393b79", "#637939", "#8c6d31", "#843c39", "#7b4173", "#e6550d", "#31a354", "#636363",
          "#fd8d3c", "#74c476", "#969696", "#e7ba52", "#ad494a", "#a55194"]


def method_colour(name):
    """The colour of a series (a method name or the config's `as:` name) in every figure."""
    if name in KNOWN:
        return KNOWN[name]
    return OTHERS[zlib.crc32(str(name).encode("utf-8")) % len(OTHERS)]


def colour_map(names):
    """{name: colour} for the names given, by method_colour."""
    return {n: method_colour(n) for n in names}
