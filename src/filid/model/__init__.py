"""Value types that cross pipeline stages: errors, nodes, source facts, violations, actions.

Everything here is a frozen, slotted dataclass or a string enum so that stages stay pure and
results can be cached (pickled) and compared.
"""

from __future__ import annotations
