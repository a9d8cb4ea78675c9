#ifndef CHEAPSTATS_H
#define CHEAPSTATS_H
#include <stddef.h>

/// Bytes the C heap holds in use (glibc's mallinfo2: uordblks, plus hblkhd for the chunks it maps
/// on their own), or 0 where glibc is not the C library.
size_t cheapstats_bytes_in_use(void);

/// Whether this process can count its own instructions with a hardware counter (Linux:
/// perf_event_open). Virtual machines often have none.
int cheapstats_instruction_counter_works(void);

/// Does nothing, in a function the optimizer cannot see into (compiled on its own, in C): a
/// caller must assume it read or changed what `pointer` points at. WorkloadSupport's `opaque`
/// passes a value through it so that the optimizer cannot know the value that comes back.
void cheapstats_escape(void *pointer);

#endif
