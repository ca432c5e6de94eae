#include "HeapStatistics.h"

#if defined(__APPLE__)
#include <malloc/malloc.h>

size_t heap_statistics_bytes_in_use(void) {
    malloc_statistics_t statistics;
    malloc_zone_statistics(NULL, &statistics);
    return statistics.size_in_use;
}
#elif defined(__linux__)
#include <malloc.h>

#if defined(__GLIBC__)
size_t heap_statistics_bytes_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}
#else
size_t heap_statistics_bytes_in_use(void) { return 0; }
#endif
#else
size_t heap_statistics_bytes_in_use(void) { return 0; }
#endif
