#ifndef CHEAPSTATS_H
#define CHEAPSTATS_H
#include <stddef.h>

/// Bytes the C heap holds in use (glibc's mallinfo2: uordblks, plus hblkhd for the chunks it maps
/// on their own), or 0 where glibc is not the C library.
size_t cheapstats_bytes_in_use(void);

/// Whether this process can count its own instructions with a hardware counter (Linux:
/// perf_event_open). Virtual machines often have none.
int cheapstats_instruction_counter_works(void);

#endif
