#ifndef HEAP_STATISTICS_H
#define HEAP_STATISTICS_H

#include <stddef.h>

/// The bytes the allocator has handed out and not had back: glibc's small blocks in use plus its
/// memory-mapped blocks (`mallinfo2`); the default zone's bytes in use on Apple platforms; 0 elsewhere.
size_t heap_statistics_bytes_in_use(void);

#endif
