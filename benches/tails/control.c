/* The host's own tails: the control run beside warren's batches in benches/tails/run.py.
 *
 *     control MAPS
 *
 * Makes MAPS "maps" of a fixed amount of work, the kind a town's growth does (random cells of
 * a 600×600 grid of one-byte statuses and four-byte slots: a row and column from each index,
 * a neighbour read, two writes), about as long as a 399×399 town, and prints each one's time
 * in µs, a line each. Every map does the same operations on the same data in the same order,
 * so any spread in its times is the host's (another guest on the core, the clock, steal).
 *
 * The grid's 1.8 MB are about what a 399×399 town's engine and map hold: on the host of
 * 2026-12-02 the spread grew with the data (a 199×199 grid's slow stretches ran 1.03–1.26×
 * its fastest map, a 600×600 grid's 1.15–1.95×, a town's about 1.45×), so a control with
 * less data than a town would show a quieter host than the town meets. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { COLS = 600, CELLS = COLS * COLS, STEPS = 1500000 };

static double now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

int main(int argc, char **argv) {
    int maps = argc == 2 ? atoi(argv[1]) : 0;
    if (maps < 1) {
        fputs("usage: control MAPS (at least 1)\n", stderr);
        return 2;
    }
    static uint8_t status[CELLS];
    static uint32_t slot[CELLS];
    /* Read back at the end, so the compiler keeps every step. */
    uint64_t kept = 0;
    for (int map = 0; map < maps; map++) {
        uint64_t x = 88172645463325252ull;
        double started = now_us();
        for (int step = 0; step < STEPS; step++) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            /* A width the compiler cannot know (COLS, as argc is 2): a real division, as a
             * town's row and column were before it looked its edges up. */
            uint32_t cols = COLS + (uint32_t)(argc - 2);
            uint32_t cell = (uint32_t)(x % CELLS), row = cell / cols, col = cell % cols;
            if (row > 0 && status[cell - cols] == 1)
                kept += slot[cell - cols];
            if (col + 1 < cols)
                status[cell + 1] = (status[cell + 1] + 1) & 3;
            slot[cell] += row;
        }
        printf("%.1f\n", now_us() - started);
    }
    return kept == 42 ? 3 : 0;
}
