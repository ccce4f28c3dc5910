/* inspect_hazard.c: the order of an entry's shared-memory stores, loads and barriers, read from
 * the PTX as a loop runs it: whether a thread can read shared memory after writing it, or write
 * it after reading it, with no barrier (__syncthreads) in between. Those are the two hazards of
 * a tile staged in shared memory step after step; a suite words the verdict in its lab's
 * terms. */
#include "inspect.h"

#include <ctype.h>
#include <string.h>

/* The entry's shared-memory stores ('S'), loads ('L') and barriers ('B'), in the order of the
 * PTX text. Returns how many (at most max). */
static int shared_events(const gl_ptx_entry *e, char *ev, int max)
{
    const char *p = e->body, *end = e->body + e->body_len;
    int n = 0;
    while (p < end && n < max) {
        const char *eol = memchr(p, '\n', (size_t)(end - p)), *t = p;
        const char *stop = eol ? eol : end;
        while (t < stop && isspace((unsigned char)*t))
            t++;
        if (t < stop && *t == '@') { /* a guard predicate: @%p1 or @!%p1 */
            while (t < stop && !isspace((unsigned char)*t))
                t++;
            while (t < stop && isspace((unsigned char)*t))
                t++;
        }
        if (!strncmp(t, "st.shared", 9))
            ev[n++] = 'S';
        else if (!strncmp(t, "ld.shared", 9))
            ev[n++] = 'L';
        else if (!strncmp(t, "bar.sync", 8) || !strncmp(t, "barrier.sync", 12))
            ev[n++] = 'B';
        p = stop + 1;
    }
    return n;
}

int gl_ptx_shared_hazard(const gl_ptx_entry *e)
{
    static char ev[100000];
    int n = shared_events(e, ev, (int)sizeof ev), i, j;
    for (i = 0; i < n; i++) {
        if (ev[i] == 'B')
            continue;
        for (j = 1; j < n; j++) { /* the events after it, the end wrapping around to the start */
            char next = ev[(i + j) % n];
            if (next == 'B')
                break;
            if (next != ev[i])
                return ev[i] == 'S' ? GL_READ_AFTER_WRITE : GL_WRITE_AFTER_READ;
        }
    }
    return 0;
}
