"""A real Dask cluster of worker processes runs jitted kernels: over a Dask
array's blocks and through client.map, by reference and by value."""

from __future__ import annotations

import numpy as np
import pytest

import jit_dask

distributed = pytest.importorskip("distributed")
da = pytest.importorskip("dask.array")


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=2, processes=True, dashboard_address=None, silence_logs=40
    )
    client = distributed.Client(cluster)
    try:
        yield client
    finally:
        client.close()
        cluster.close()


def test_map_blocks_over_worker_processes(client) -> None:
    rng = np.random.default_rng(7)
    data = rng.standard_normal(40_000)
    array = da.from_array(data, chunks=10_000)
    result = array.map_blocks(jit_dask.smooth_block, dtype=np.float64).compute()
    expected = np.concatenate([jit_dask.smooth_block.py_func(data[i : i + 10_000]) for i in range(0, 40_000, 10_000)])
    np.testing.assert_array_equal(result, expected)
    # The workers are other processes, and they compiled the kernel there.
    pids = set(client.run(lambda: __import__("os").getpid()).values())
    assert __import__("os").getpid() not in pids
    assert all(count >= 1 for count in client.run(jit_dask.worker_compilations).values())


def test_client_map_of_a_closure_pickled_by_value(client) -> None:
    scaled_sum = jit_dask.make_scaled_sum(0.5)
    futures = client.map(scaled_sum, [float(x) for x in range(8)], [100] * 8)
    assert client.gather(futures) == [scaled_sum.py_func(float(x), 100) for x in range(8)]


def test_a_second_cluster_loads_from_the_cache(tmp_path, monkeypatch) -> None:
    # Worker processes inherit PLAIT_CACHE_DIR; the first cluster's workers
    # compile and write, the second's load and compile nothing.
    monkeypatch.setenv("PLAIT_CACHE_DIR", str(tmp_path))
    data = np.arange(20_000, dtype=np.float64) / 1000.0
    expected = [float(np.dot(b, b)) for b in np.split(data, 4)]
    compiled = []
    for _ in range(2):
        cluster = distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=40
        )
        with distributed.Client(cluster) as client:
            blocks = client.scatter(np.split(data, 4))
            results = client.gather(client.map(jit_dask.cached_block_energy, blocks))
            assert np.allclose(results, expected, rtol=1e-12)
            compiled.append(sum(client.run(jit_dask.worker_compilations).values()))
        cluster.close()
    assert compiled[0] >= 1, "the first cluster's workers compiled"
    assert compiled[1] == 0, "the second cluster's workers loaded every kernel from the cache"
