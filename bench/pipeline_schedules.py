#!/usr/bin/env python3
"""Megatron-LM's pipeline schedules simulated op by op against the step core/cost/PipelineCost
prices: m x the bottleneck stage's micro-batch time + every other stage's once (over v
interleaved), and the rule before it, (m + (p - 1)/v) x the bottleneck's time.

Each stage issues its ops in the order Megatron-LM's schedules.py does: 1F1B
(forward_backward_pipelining_without_interleaving): p - s - 1 warm-up forwards, one forward
and one backward in turn, the cool-down backwards; interleaved (..._with_interleaving): v
chunks per stage, (p - s - 1) x 2 + (v - 1) x p warm-up forwards, micro-batches in groups of
p per chunk. An op starts when its stage is free and its input has arrived (no send time).
Prints the worked cases and, over random stage times, the range of priced / simulated - 1.
"""
import random


def one_f_one_b(forward, backward, m):
    p = len(forward)
    orders = []
    for s in range(p):
        warm = min(p - s - 1, m)
        ops = [("F", i, 0) for i in range(warm)]
        for i in range(warm, m):
            ops += [("F", i, 0), ("B", i - warm, 0)]
        ops += [("B", i, 0) for i in range(m - warm, m)]
        orders.append(ops)
    return run(orders, forward, backward, 1)


def interleaved(forward, backward, m, v):
    p = len(forward)
    total = m * v

    def forward_id(k):
        group, within = divmod(k, p * v)
        return group * p + within % p, within // p

    def backward_id(k):
        mb, chunk = forward_id(k)
        return mb, v - 1 - chunk

    orders = []
    for s in range(p):
        warm = min(total, (p - s - 1) * 2 + (v - 1) * p)
        ops = [("F", *forward_id(k)) for k in range(warm)]
        for k in range(warm, total):
            ops += [("F", *forward_id(k)), ("B", *backward_id(k - warm))]
        ops += [("B", *backward_id(k)) for k in range(total - warm, total)]
        orders.append(ops)
    return run(orders, forward, backward, v)


def run(orders, forward, backward, v):
    p = len(orders)
    done, clock, next_op = {}, [0.0] * p, [0] * p
    moved = True
    while moved:
        moved = False
        for s in range(p):
            while next_op[s] < len(orders[s]):
                kind, mb, chunk = orders[s][next_op[s]]
                if kind == "F":
                    ready = (done.get(("F", s - 1, mb, chunk)) if s > 0
                             else done.get(("F", p - 1, mb, chunk - 1)) if chunk > 0 else 0.0)
                    seconds = forward[s] / v
                else:
                    ready = (done.get(("B", s + 1, mb, chunk)) if s < p - 1
                             else done.get(("B", 0, mb, chunk + 1)) if chunk < v - 1
                             else done.get(("F", s, mb, chunk)))
                    seconds = backward[s] / v
                if ready is None:
                    break
                clock[s] = max(clock[s], ready) + seconds
                done[(kind, s, mb, chunk)] = clock[s]
                next_op[s] += 1
                moved = True
    assert all(next_op[s] == len(orders[s]) for s in range(p)), "schedule deadlocked"
    return max(clock)


def priced(forward, backward, m, v):
    times = [f + b for f, b in zip(forward, backward)]
    slowest = max(times)
    return m * slowest + (sum(times) - slowest) / v, (m + (len(times) - 1) / v) * slowest


def simulated(forward, backward, m, v):
    return one_f_one_b(forward, backward, m) if v == 1 else interleaved(forward, backward, m, v)


def main():
    print("stage times             m  v  simulated  priced  before")
    for times, m, v in [([1, 1, 1, 2], 8, 1), ([1, 1, 1, 2], 8, 2), ([1.2, 1, 1, 2], 8, 1), ([1.2, 1, 1, 2], 8, 2),
                        ([1] * 63 + [1.056], 512, 1), ([1] * 34 + [1.05], 280, 3)]:
        forward, backward = [t / 3 for t in times], [2 * t / 3 for t in times]
        new, old = priced(forward, backward, m, v)
        label = str(times) if len(times) <= 4 else f"{len(times)} stages, last x{times[-1]}"
        print(f"{label:22} {m:3} {v:2} {simulated(forward, backward, m, v):10.3f} {new:7.3f} {old:7.3f}")
    random.seed(1)
    for v, trials in ((1, 2000), (2, 300), (3, 300), (4, 300)):
        lowest = highest = highest_before = 0.0
        exact_last = 0.0
        for _ in range(trials):
            p = random.choice([2, 3, 4, 8, 16] if v > 1 else [2, 3, 4, 8, 16, 35, 64])
            m = p * random.choice([1, 2, 4, 8]) if v > 1 else random.choice([1, 2, 4, 8, 16, 64, 512])
            times = [random.uniform(0.8, 1.2) if random.random() < 0.7 else random.uniform(1.0, 2.0) for _ in range(p)]
            share = [random.uniform(0.25, 0.4) for _ in range(p)]
            forward = [t * r for t, r in zip(times, share)]
            backward = [t * (1 - r) for t, r in zip(times, share)]
            sim = simulated(forward, backward, m, v)
            new, old = priced(forward, backward, m, v)
            lowest, highest = min(lowest, new / sim - 1), max(highest, new / sim - 1)
            highest_before = max(highest_before, old / sim - 1)
            if max(range(p), key=lambda s: times[s]) == p - 1:
                exact_last = max(exact_last, abs(new / sim - 1))
        print(f"v {v}: priced / simulated - 1 from {lowest:+.3f} to {highest:+.3f} (before: up to {highest_before:+.3f});"
              f" bottleneck last: within {exact_last:.1e}")


if __name__ == "__main__":
    main()
