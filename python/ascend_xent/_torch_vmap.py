"""The vmap rule of the custom ops: one call per batch element, results stacked.

The kernel takes one (N, C) problem per launch, and under "mean" the normalisation
(the sum of target weights) is per problem, so a batch is a loop of launches, not one
bigger launch. This is what ``torch.func.vmap`` (and jacrev, which vmaps the backward
over the rows of the identity) of ``ascend_xent.cross_entropy`` runs.
"""

from __future__ import annotations

import torch


def loop_rule(op):
    """A ``torch.library.register_vmap`` rule calling ``op`` once per batch element."""

    def rule(info, in_dims, *args):
        def element(i):
            return op(*(a.select(d, i).contiguous() if d is not None else a
                        for a, d in zip(args, in_dims)))

        results = [element(i) for i in range(info.batch_size)]
        if isinstance(results[0], torch.Tensor):
            return torch.stack(results), 0
        stacked = tuple(torch.stack(parts) for parts in zip(*results))
        return stacked, (0,) * len(stacked)

    return rule
