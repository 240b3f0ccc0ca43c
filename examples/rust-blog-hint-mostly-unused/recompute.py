#!/usr/bin/env python3
"""Recomputes the post's arithmetic: each Delta from the two build times beside it, and the
windows crate's own times against the table's first row. Standard library only; a helper
for writing the registry, not part of claimcheck."""

ROWS = [
    ("windows, all Graphics/UI features", 18.3, 10.7, "-42%"),
    ("windows, all features", 3 * 60 + 48, 2 * 60 + 55, "-23%"),
    ("rustix, all-apis feature", 5.9, 4.3, "-27%"),
    ("x11rb and x11rb-protocol", 5.3, 2.6, "-51%"),
    ("aws-sdk-ec2", 4 * 60 + 7, 2 * 60 + 4, "-50%"),
]

for name, before, after, quoted in ROWS:
    delta = (after - before) / before * 100
    print(f"{name:36} {before:7.1f} s -> {after:7.1f} s  {delta:+7.2f} %  quoted {quoted:>5}  {'ok' if f'{delta:.0f}%' == quoted else 'DIFFERS'}")

saved_build = 18.3 - 10.7
saved_crate = 15.1 - 7.5
print(f"windows crate alone saves {saved_crate:.1f} s; the first row's build saves {saved_build:.1f} s; the rest of that build: {18.3 - 15.1:.1f} s before, {10.7 - 7.5:.1f} s with the hint")
