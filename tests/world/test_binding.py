import threading

from whileai_env.world.binding import active_world, bound


def test_bound_sets_the_active_world_for_the_block_only():
    assert active_world() is None
    outer, inner = object(), object()
    with bound(outer):
        assert active_world() is outer
        with bound(inner):
            assert active_world() is inner
        assert active_world() is outer
    assert active_world() is None


def test_threads_see_their_own_world():
    seen = {}

    def play(name):
        world = object()
        with bound(world):
            barrier.wait()
            seen[name] = active_world() is world

    barrier = threading.Barrier(4)
    threads = [threading.Thread(target=play, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert seen == dict.fromkeys(range(4), True)


def test_an_error_in_the_block_still_unbinds():
    try:
        with bound(object()):
            raise RuntimeError("boom")
    except RuntimeError:
        pass
    assert active_world() is None
