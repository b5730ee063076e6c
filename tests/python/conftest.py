"""pytest set-up for the dpclust Python tests: most fits here are seeded (reproducible numbers), and a seeded
fit is not a private release, so each would warn NotPrivateReleaseWarning; the tests that are about the
warning ask for it with pytest.warns, which sees it whatever the filter."""
import warnings

import dpclust


def pytest_configure(config):
    warnings.filterwarnings("ignore", category=dpclust.NotPrivateReleaseWarning)
    config.addinivalue_line("filterwarnings", "ignore::dpclust.NotPrivateReleaseWarning")
