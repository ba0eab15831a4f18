#!/usr/bin/env bash
# `make test` needs Chromium and chromedriver for the HTML report's browser test
# (tests/test_report_html_browser.py). Present: nothing to do. Missing and we are root
# on Debian/Ubuntu: install the distribution's packages. Otherwise: one line saying what to install.
set -euo pipefail
if command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; then
    exit 0
fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "make test: installing chromium and chromium-driver (Debian packages) for the HTML browser test" >&2
    apt-get update -q
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends chromium chromium-driver
    exit 0
fi
echo "error: the HTML browser test needs Chromium and chromedriver; install them (Debian/Ubuntu: sudo apt-get install chromium chromium-driver) and run make test again" >&2
exit 1
