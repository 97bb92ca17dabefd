"""Drift: violations → drift items → a SyncPlan the fix stage can carry out."""
