"""One training step of an exported plan (tapestry-cli export --format pytorch) on 8 CPU
processes (gloo) against a single-process reference, on tiny_llama with the plan's block count.

usage: python3 run_plan.py PLAN.py:BATCH:SEQUENCE...

The same 8 processes run every plan in turn. A pipelined plan runs on a model with the plan's
block count (its chunks hold them), the others on 2 blocks. Prints one line per plan and exits 1
when the parameters after one SGD step, or the loss, differ from the reference by more than
TOLERANCE in any. What torch 2.6 cannot run on CPU is
replaced by an exact stand-in that keeps what the file decides:
- FSDP2's fully_shard ("'Stream' object has no attribute 'record_event'" on CPU): the stand-in
  records the mesh and the modules the file hands it, and after backward averages the
  gradients over exactly that mesh (what FSDP's reduce-scatter computes).
- context_parallel's ring attention (no sharding rule for the CPU attention kernel,
  aten._scaled_dot_product_flash_attention_for_cpu): the stand-in takes the mesh the file
  hands it and computes the same attention by gathering keys and values over it, with the
  causal mask of the round-robin layout context_parallel uses. local_batch is also checked
  against torch's own context-parallel sharder.
- Schedule1F1B deadlocks on gloo in torch 2.6 (the first stage waits
  in its fused forward-send/backward-receive, the second in its backward-send/forward-receive):
  the stand-in runs the same stages, chunks and micro-batches with ScheduleGPipe (the schedules
  order the micro-batches' work; the gradients are the same)."""
import contextlib
import copy
import datetime
import importlib.util
import json
import os
import sys
import tempfile

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn.functional as F
from torch.distributed.tensor import DTensor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tiny_llama  # noqa: E402

WORLD = 8
TOLERANCE = 1e-5
LEARNING_RATE = 0.5


def load_plan(path):
    spec = importlib.util.spec_from_file_location("exported_plan", path)
    plan = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(plan)
    return plan


class FullyShardStandIn:
    """Records what the file hands fully_shard; averages gradients over that mesh after backward."""

    def __init__(self):
        self.meshes = []
        self.modules = []

    def __call__(self, module, *, mesh, reshard_after_forward=True):
        self.meshes.append(mesh)
        self.modules.append(module)
        return module

    def average_gradients(self):
        if not self.modules:
            return
        assert all(m is self.meshes[0] or m.mesh.tolist() == self.meshes[0].mesh.tolist() for m in self.meshes)
        mesh = self.meshes[0]
        assert mesh.ndim == 1, f"fully_shard got a {mesh.ndim}-D mesh"
        group = mesh.get_group()
        seen = set()
        for module in self.modules:
            for parameter in module.parameters():
                if id(parameter) in seen or parameter.grad is None:
                    continue
                seen.add(id(parameter))
                grad = parameter.grad._local_tensor if isinstance(parameter.grad, DTensor) else parameter.grad
                dist.all_reduce(grad, group=group)
                grad /= mesh.size()


def round_robin_positions(rank, size, length):
    """Global positions of a context rank's local sequence under context_parallel's round-robin layout."""
    half = length // 2
    first = torch.arange(rank * half, (rank + 1) * half)
    second = torch.arange((2 * size - 1 - rank) * half, (2 * size - rank) * half)
    return torch.cat((first, second))


class GatherSequence(torch.autograd.Function):
    """x [batch, heads, sequence, dim] of every rank of `group`, concatenated on the sequence;
    backward sums the gradients and returns this rank's part."""

    @staticmethod
    def forward(ctx, x, group, size, rank):
        parts = [torch.empty_like(x) for _ in range(size)]
        dist.all_gather(parts, x.contiguous(), group=group)
        ctx.group, ctx.size, ctx.rank = group, size, rank
        return torch.cat(parts, dim=2)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.contiguous()
        dist.all_reduce(grad, group=ctx.group)
        return grad.chunk(ctx.size, dim=2)[ctx.rank], None, None, None


class ContextParallelStandIn:
    """context_parallel(mesh) that computes ring attention's result by gathering keys and values."""

    def __init__(self):
        self.meshes = []

    @contextlib.contextmanager
    def __call__(self, mesh, **unused):
        assert mesh.ndim == 1
        self.meshes.append(mesh)
        original = F.scaled_dot_product_attention
        group, size, rank = mesh.get_group(), mesh.size(), mesh.get_local_rank()

        def attention(q, k, v, is_causal=False, **kwargs):
            assert is_causal and not kwargs
            local = q.size(2)
            keys = GatherSequence.apply(k, group, size, rank)
            values = GatherSequence.apply(v, group, size, rank)
            query_positions = round_robin_positions(rank, size, local)
            key_positions = torch.cat([round_robin_positions(r, size, local) for r in range(size)])
            mask = query_positions[:, None] >= key_positions[None, :]
            return original(q, keys, values, attn_mask=mask)

        F.scaled_dot_product_attention = attention
        try:
            yield
        finally:
            F.scaled_dot_product_attention = original


def full(tensor):
    return tensor.full_tensor() if isinstance(tensor, DTensor) else tensor


def plain_name(name):
    return name.replace("_checkpoint_wrapped_module.", "").replace("_fsdp_wrapped_module.", "")


def reference_step(model, tokens, labels):
    model = copy.deepcopy(model)
    loss = F.cross_entropy(model(tokens).flatten(0, 1), labels.flatten())
    loss.backward()
    with torch.no_grad():
        for parameter in model.parameters():
            parameter -= LEARNING_RATE * parameter.grad
    return loss.item(), {name: p.detach() for name, p in model.named_parameters()}


def worker(rank, cases, directory):
    """Runs every case; writes this rank's results to DIRECTORY/rank-N.json."""
    torch.set_default_dtype(torch.float64)
    # A collective that waits longer than this is a bug: fail, do not hang the test.
    dist.init_process_group("gloo", init_method="file://" + os.path.join(directory, "rendezvous"), rank=rank,
                            world_size=WORLD, timeout=datetime.timedelta(seconds=120))
    rows = [run_case(load_plan(path), batch, sequence) for path, batch, sequence in cases]
    with open(os.path.join(directory, f"rank-{rank}.json"), "w") as file:
        json.dump(rows, file)
    dist.barrier()
    dist.destroy_process_group()


def run_case(plan, batch, sequence):
    """(largest parameter difference, parameter tensors compared, loss difference, fully_shard's mesh,
    context_parallel's mesh) on this rank."""
    # Each case builds its own mesh. torch keys submeshes by shape and axis names, so a
    # submesh of an earlier case can equal this case's root mesh and be refused as "a
    # submesh" when sliced: forget the earlier cases' submeshes.
    from torch.distributed.device_mesh import _mesh_resources
    _mesh_resources.child_to_root_mapping.clear()
    _mesh_resources.root_to_flatten_mapping.clear()
    _mesh_resources.flatten_name_to_root_dims.clear()
    shard = FullyShardStandIn()
    if hasattr(plan, "fully_shard"):
        plan.fully_shard = shard
    ring = ContextParallelStandIn()
    if hasattr(plan, "context_parallel"):
        plan.context_parallel = ring
    if hasattr(plan, "Schedule1F1B"):
        from torch.distributed.pipelining import ScheduleGPipe
        plan.Schedule1F1B = ScheduleGPipe
    torch.manual_seed(0)
    model = tiny_llama.LlamaForCausalLM(len(plan.BLOCKS) if hasattr(plan, "stage_modules") else 2)
    tokens = torch.randint(0, tiny_llama.VOCABULARY, (batch, sequence))
    labels = torch.randint(0, tiny_llama.VOCABULARY, (batch, sequence))
    positions = torch.arange(sequence).expand(batch, sequence).contiguous()
    reference_loss, reference = reference_step(model, tokens, labels)

    mesh = plan.device_mesh("cpu")
    assert mesh.ndim == len(plan.MESH_AXES) and mesh.size() == WORLD
    if hasattr(plan, "CONTEXT_AXES"):
        # local_batch splits the sequence as context_parallel's own sharder does.
        from torch.distributed.tensor.experimental._attention import _context_parallel_buffers
        marked = torch.arange(batch * sequence).view(batch, sequence)
        mine = plan.local_batch(marked, mesh)
        rows = marked[mine[:, 0] // sequence]
        expected = _context_parallel_buffers(mesh["_".join(plan.CONTEXT_AXES)], [rows], [1])[0]
        assert torch.equal(mine, expected), "local_batch splits the sequence unlike context_parallel"
    step = plan.step_context(mesh) if hasattr(plan, "step_context") else contextlib.nullcontext()
    loss_fn = lambda logits, target: F.cross_entropy(logits.flatten(0, 1), target.flatten())  # noqa: E731
    local_tokens, local_labels = plan.local_batch(tokens, mesh), plan.local_batch(labels, mesh)
    losses = []
    if hasattr(plan, "stage_modules"):
        chunks = [plan.apply(chunk, mesh) for chunk in plan.stage_modules(model, mesh)]
        schedule = plan.pipeline_schedule(chunks, mesh, torch.device("cpu"), loss_fn)
        stage = mesh.get_coordinate()[plan.MESH_AXES.index("pp")]
        with step:
            if stage == 0:
                schedule.step(local_tokens)
            elif stage == plan.PIPELINE_STAGES - 1:
                schedule.step(target=local_labels, losses=losses)
            else:
                schedule.step()
        modules = chunks
        loss = torch.stack([full(l) for l in losses]).sum().detach() if losses else None
    else:
        parallel = plan.apply(copy.deepcopy(model), mesh)
        local_positions = plan.local_batch(positions, mesh) if hasattr(plan, "CONTEXT_AXES") else None
        with step:
            loss = loss_fn(parallel(local_tokens, local_positions), local_labels)
            loss.backward()
        modules = [parallel]
        loss = full(loss).detach()
    shard.average_gradients()
    worst = 0.0
    checked = 0
    with torch.no_grad():
        for module in modules:
            for name, parameter in module.named_parameters():
                parameter -= LEARNING_RATE * parameter.grad
                difference = (full(parameter) - reference[plain_name(name)]).abs().max().item()
                worst, checked = max(worst, difference), checked + 1
    if loss is not None and hasattr(plan, "data_mesh"):
        loss = loss.clone()
        dist.all_reduce(loss, group=plan.data_mesh(mesh).get_group())
        loss /= plan.data_mesh(mesh).size()
    loss_difference = abs(loss.item() - reference_loss) if loss is not None else 0.0
    return (worst, checked, loss_difference,
            [m.mesh.tolist() for m in shard.meshes[:1]], [m.mesh.tolist() for m in ring.meshes[:1]])


def main():
    cases = [(path, int(batch), int(sequence)) for path, batch, sequence in (a.rsplit(":", 2) for a in sys.argv[1:])]
    with tempfile.TemporaryDirectory() as directory:
        mp.spawn(worker, args=(cases, directory), nprocs=WORLD)
        ranks = []
        for rank in range(WORLD):
            with open(os.path.join(directory, f"rank-{rank}.json")) as file:
                ranks.append(json.load(file))
    failed = 0
    for index, (path, batch, sequence) in enumerate(cases):
        mine = [rows[index] for rows in ranks]
        worst = max(r[0] for r in mine)
        checked = sum(r[1] for r in mine)
        loss = max(r[2] for r in mine)
        ok = worst <= TOLERANCE and loss <= TOLERANCE and checked > 0
        failed += not ok
        print(f"{'ok    ' if ok else 'FAILED'} {os.path.basename(path)} (batch {batch} x {sequence} tokens): "
              f"{checked} parameter tensors on {WORLD} ranks, largest difference {worst:.1e} after one SGD step, "
              f"loss difference {loss:.1e}; rank 0's fully_shard mesh {mine[0][3]}, context_parallel mesh {mine[0][4]}")
    print(f"{len(cases) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
