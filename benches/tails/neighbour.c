/* A neighbour that presses on the caches shared with the other core: benches/tails/contention.py
 * runs it on one vCPU while a town's batch and the control run on the other.
 *
 *     neighbour MIB
 *
 * Walks a buffer of MIB mebibytes line by line, reading and writing one word of each 64-byte
 * line, until it is killed: a buffer larger than the core's own cache but within the shared
 * cache takes that cache from its neighbours; a larger one also takes memory bandwidth. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    long mib = argc == 2 ? atol(argv[1]) : 0;
    if (mib < 1) {
        fputs("usage: neighbour MIB (at least 1)\n", stderr);
        return 2;
    }
    size_t words = (size_t)mib << 17;
    volatile uint64_t *buffer = malloc(words * sizeof *buffer);
    if (buffer == NULL) {
        fputs("neighbour: out of memory\n", stderr);
        return 1;
    }
    memset((void *)buffer, 1, words * sizeof *buffer);
    for (;;)
        for (size_t i = 0; i < words; i += 8)
            buffer[i]++;
}
