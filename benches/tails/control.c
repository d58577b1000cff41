/* The host's own tails: the control run beside warren's batches in benches/tails/run.py.
 *
 *     control MAPS
 *
 * Makes MAPS "maps" of a fixed amount of work, the kind a town's growth does (random cells of
 * a 600×600 grid of one-byte statuses and four-byte slots: a row and column from each index,
 * a neighbour read, two writes), about as long as a 399×399 town, and prints each one's time
 * in µs, a line each. Every map starts from the same data and does the same operations in the
 * same order, so any spread in its times is the host's (another guest on the core or beside
 * it, the clock, steal).
 *
 * The grid's 1.8 MB are about what a 399×399 town's engine and map hold: on the host of
 * 2026-12-02 the spread grew with the data (a 199×199 grid's slow stretches ran 1.03–1.26×
 * its fastest map, a 600×600 grid's 1.15–1.95×, a town's about 1.45×), so a control with
 * less data than a town would show a quieter host than the town meets. */
#define _POSIX_C_SOURCE 199309L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { COLS = 600, CELLS = COLS * COLS, STEPS = 1000000 };

/* Read once, as a value the compiler cannot know: a real division and remainder every step,
 * as a town's row and column were before it looked its cells' edges up. */
static volatile uint32_t width = COLS;
/* Where the work's result goes, so that the compiler keeps every step. */
static volatile uint64_t kept;

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
    const uint32_t cols = width;
    for (int map = 0; map < maps; map++) {
        /* The same data for every map, written outside the timed part. */
        memset(status, 0, sizeof status);
        memset(slot, 0, sizeof slot);
        uint64_t x = 88172645463325252ull, sum = 0;
        double started = now_us();
        for (int step = 0; step < STEPS; step++) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            uint32_t cell = (uint32_t)(x % CELLS), row = cell / cols, col = cell % cols;
            if (row > 0 && status[cell - cols] == 1)
                sum += slot[cell - cols];
            if (col + 1 < cols)
                status[cell + 1] = (status[cell + 1] + 1) & 3;
            slot[cell] += row;
        }
        double took = now_us() - started;
        kept = sum;
        printf("%.1f\n", took);
    }
    return 0;
}
