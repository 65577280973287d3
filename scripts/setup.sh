#!/usr/bin/env bash
# Installs every Debian package TileScope needs to build, test and run.
# Idempotent: packages already present are skipped, so a second run is a no-op.
set -euo pipefail

# The one list. Grouped by what needs it.
PACKAGES=(
  # toolchain
  build-essential g++ cmake ninja-build pkg-config git ca-certificates
  # reportfmt
  libsqlite3-dev sqlite3 zlib1g-dev
  # libraries used across layers
  libfmt-dev libcli11-dev nlohmann-json3-dev libtbb-dev
  # remote storage
  libssh-dev openssh-server openssh-client
  # app
  qt6-base-dev libqt6opengl6-dev libgl-dev libimgui-dev
  # canvases under Xvfb: Mesa software rendering, and a font for text
  libgl1-mesa-dri libegl-mesa0 libglx-mesa0 fonts-dejavu-core
  # tests, benchmarks, fuzzing
  catch2 libbenchmark-dev clang-14 libclang-rt-14-dev xvfb xauth
  # enable.sh is checked in zsh too
  zsh
  # Python faces (pva, libpvti) and their tests
  pybind11-dev python3-pybind11 python3-dev python3-pytest python3-numpy
  # the PopART face: ONNX import, the ONNX backend test data; PopTorch face and test models
  libonnx-dev libprotobuf-dev protobuf-compiler python3-onnx libonnx-testdata
  python3-torch python3-torchvision python3-pil
  # what-if sweeps on a single-node Slurm cluster started by the tests
  slurmctld slurmd slurm-client munge
)

if [[ $(id -u) -ne 0 ]]; then
  SUDO=sudo
else
  SUDO=
fi

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
    missing+=("$p")
  fi
done

if ((${#missing[@]} == 0)); then
  echo "setup: all ${#PACKAGES[@]} packages present"
  exit 0
fi

echo "setup: installing ${#missing[@]} packages: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "setup: done"
