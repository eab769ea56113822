#!/usr/bin/env bash
# Installs the Debian bookworm packages gounki needs, only those that are missing, so a second
# run costs nothing. Runs as root (or with sudo available). Extra packages may be named as arguments.
set -euo pipefail

# qt6-websockets-dev: the CMake package of qt6-httpserver-dev looks for Qt6WebSockets, which the
# Debian package does not depend on (configuring fails on a machine without it).
packages=(cmake ninja-build g++ libboost-dev libsqlite3-dev sqlite3 libicu-dev libpq-dev qt6-base-dev qt6-httpserver-dev
  qt6-websockets-dev catch2 libexpat1-dev libarchive-dev "$@")
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "Installing: ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
