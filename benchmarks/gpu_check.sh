#!/usr/bin/env bash
# Issue #37, part 2, in one call on a machine with a CUDA GPU and CuPy (PyTorch optional):
# the GPU tests on the device, the suite's modules with GPU branches, then the timings of
# benchmarks/gpu_check.py. From the repository root:
#
#     OUT=DIR NGC_REF_DATA=DATA bash benchmarks/gpu_check.sh           # the full check
#     OUT=DIR bash benchmarks/gpu_check.sh --quick                    # small graphs only
#
# Everything lands in $OUT (default benchmarks/results/gpu): env.txt (GPU, driver, CUDA, CuPy,
# torch), test_gpu.log, suite.log, bench.log, gpu_check.json and gpu_check.md. Nothing is
# fetched: the image's NumPy/SciPy/CuPy serve (the gpu extra names cupy-cuda12x; a CUDA 13
# image's cupy-cuda13x does as well). SUITE=tests runs the whole suite instead of the modules
# with GPU branches; NGC_REF_COMMIT names the commit when the tree has no .git.
# Limits (seconds): TEST_TIMEOUT (240), SUITE_TIMEOUT (180), BENCH_TIMEOUT (300).
set -u -o pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-benchmarks/results/gpu}
PY=${PYTHON:-python3}
SUITE=${SUITE:-"tests/test_neumann.py tests/test_solve.py tests/test_solve_api.py
    tests/test_connectivity.py tests/test_robust.py tests/test_normalize.py
    tests/test_normalize_weights.py tests/test_memory.py tests/test_inputs.py tests/test_spmm.py"}
export PYTHONUNBUFFERED=1 HYPOTHESIS_PROFILE=ci
export NGC_REF_COMMIT=${NGC_REF_COMMIT:-$(git rev-parse HEAD 2>/dev/null || echo unknown)}
mkdir -p "$OUT"

# The package itself, without dependencies; else straight from the tree.
if ! $PY -m pip install -q --no-deps --no-build-isolation --no-index -e . >"$OUT/install.log" 2>&1
then
    export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
fi

{
    date -u
    echo "commit $NGC_REF_COMMIT"
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.memory --format=csv
    $PY - <<'EOF'
import numpy, scipy, cupy
rt = cupy.cuda.runtime
print("GPU", rt.getDeviceProperties(0)["name"].decode(), "| CUDA runtime", rt.runtimeGetVersion(),
      "| driver API", rt.driverGetVersion(), "| CuPy", cupy.__version__, "| NumPy",
      numpy.__version__, "| SciPy", scipy.__version__)
try:
    import torch
    print("torch", torch.__version__, "CUDA", torch.version.cuda, torch.cuda.is_available())
except ImportError:
    print("torch: not installed")
EOF
} >"$OUT/env.txt" 2>&1
cat "$OUT/env.txt"

# 1. The GPU tests: the stand-in half and the real-CuPy half (-rs: say why anything skipped).
timeout "${TEST_TIMEOUT:-240}" $PY -m pytest tests/test_gpu.py -q -rs -p no:cacheprovider \
    2>&1 | tee "$OUT/test_gpu.log"

# 2. The suite's modules with GPU branches (or SUITE=tests), on the CPU, in parallel if it can.
XDIST=""
$PY -c "import xdist" 2>/dev/null && XDIST="-n ${XDIST_WORKERS:-8}"
# shellcheck disable=SC2086
timeout "${SUITE_TIMEOUT:-180}" $PY -m pytest $SUITE -q -p no:cacheprovider $XDIST \
    >"$OUT/suite.log" 2>&1
tail -n 5 "$OUT/suite.log"

# 3. The timings against torch.sparse and the triad (writes gpu_check.json / .md).
timeout "${BENCH_TIMEOUT:-300}" $PY benchmarks/gpu_check.py --out "$OUT" "$@" \
    2>&1 | tee "$OUT/bench.log"
