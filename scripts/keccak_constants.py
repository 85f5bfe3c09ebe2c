"""Keccak-f[1600]'s rotation offsets and round constants (FIPS 202, section 3.2), for the two generators."""

# Rotation offsets r[x][y].
R = [[0, 36, 3, 41, 18], [1, 44, 10, 45, 2], [62, 6, 43, 15, 61], [28, 55, 25, 21, 56], [27, 20, 39, 8, 14]]


def round_constants():
    """The 24 round constants, from the LFSR of the standard (rc(t) of Algorithm 5)."""
    out, lfsr = [], 1
    for _ in range(24):
        c = 0
        for j in range(7):
            lfsr = ((lfsr << 1) ^ ((lfsr >> 7) * 0x71)) % 256
            if lfsr & 2:
                c ^= 1 << ((1 << j) - 1)
        out.append(c)
    return out
