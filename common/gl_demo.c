/* gl_demo.c: command lines and headers of the demos. */
#include "gl_demo.h"

#include "gl_random.h"
#include "gl_table.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int gl_parse_long(const char *text, long lo, long hi, long *value)
{
    char *end;
    long v;
    if (!text || !*text)
        return -1;
    errno = 0;
    v = strtol(text, &end, 10);
    if (errno || *end != '\0' || v < lo || v > hi)
        return -1;
    *value = v;
    return 0;
}

static void usage_exit(const char *prog, const char *usage, int status)
{
    fprintf(status ? stderr : stdout, "usage: %s %s\n", prog, usage);
    exit(status);
}

void gl_demo_parse(int argc, char **argv, const char *usage, int max_values, long lo, long hi,
                   gl_demo_args *args)
{
    int i;
    memset(args, 0, sizeof *args);
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage_exit(argv[0], usage, 0);
        } else if (!strcmp(a, "--csv")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "%s: --csv needs a file name\n", argv[0]);
                usage_exit(argv[0], usage, 2);
            }
            args->csv = argv[++i];
        } else if (args->nvalues < max_values && args->nvalues < GL_DEMO_MAX_VALUES &&
                   gl_parse_long(a, lo, hi, &args->values[args->nvalues]) == 0) {
            args->nvalues++;
        } else {
            if (a[0] == '-' && (a[1] < '0' || a[1] > '9'))
                fprintf(stderr, "%s: unknown option '%s'\n", argv[0], a);
            else if (args->nvalues >= max_values)
                fprintf(stderr, "%s: too many arguments at '%s'\n", argv[0], a);
            else
                fprintf(stderr, "%s: '%s' is not a whole number from %ld to %ld\n", argv[0], a,
                        lo, hi);
            usage_exit(argv[0], usage, 2);
        }
    }
}

void gl_demo_dims(int argc, char **argv, const char *usage, int ndims, long def, long max,
                  gl_demo_args *args, int *dims)
{
    char said[128] = "";
    size_t w = 0;
    int i, j;
    gl_demo_parse(argc, argv, usage, ndims, 1, max, args);
    for (i = 0; i < ndims; i++) {
        dims[i] = (int)(i < args->nvalues ? args->values[i] : i ? dims[i - 1] : def);
        if (w < sizeof said)
            w += (size_t)snprintf(said + w, sizeof said - w, "%s%d", i ? " x " : "", dims[i]);
    }
    for (i = 0; i < ndims; i++)
        for (j = i + 1; j < ndims; j++)
            if ((long long)dims[i] * dims[j] >= (1LL << 31)) {
                fprintf(stderr, "%s: %s has a matrix of 2^31 elements or more; the lab's int "
                                "indices do not reach that far\n", argv[0], said);
                exit(2);
            }
}

int gl_demo_end(gl_table *table, const gl_demo_args *args, int wrong, const char *lab)
{
    int status = 0;
    printf("\n");
    gl_table_print(table, stdout);
    if (wrong)
        printf("\n%d row%s WRONG: not timed (README.md has the tasks; make check LAB=%s says "
               "more).\n",
               wrong, wrong > 1 ? "s are" : " is", lab);
    if (args->csv) {
        if (gl_table_write_csv(table, args->csv) != 0) {
            perror(args->csv);
            status = 1;
        } else {
            printf("wrote %s\n", args->csv);
        }
    }
    gl_table_free(table);
    return status;
}

/* The lab of this demo, from its path (build/labs/08-transpose/demo: "08"), or "NN". */
static void demo_lab(char *lab, size_t size)
{
    char exe[4096], *end, *name;
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    snprintf(lab, size, "NN");
    if (n <= 0)
        return;
    exe[n] = '\0';
    if (!(end = strrchr(exe, '/')))
        return;
    *end = '\0';
    name = strrchr(exe, '/') ? strrchr(exe, '/') + 1 : exe;
    if (strlen(name) > 3 && name[2] == '-' && name[0] >= '0' && name[0] <= '9')
        snprintf(lab, size, "%.2s", name);
}

void gl_demo_begin(gl_device_info *info)
{
    char why[512], lab[8];
    uint64_t seed = gl_seed();
    if (gl_device_query(info, why, sizeof why) != 0) {
        demo_lab(lab, sizeof lab);
        fprintf(stderr,
                "%s\n"
                "The demo runs your kernels, which needs an NVIDIA GPU. Without one:\n"
                "  make check LAB=%s KIND=technique   reads your kernels' PTX: a preview of the "
                "technique tests (no points)\n"
                "  make all                          builds every lab, your files included\n"
                "Your grade comes from a GPU: your course's runner, or a machine of your course "
                "with one.\n",
                why, lab);
        exit(1);
    }
    printf("%s (sm_%d%d, %d SMs), seed %llu (SEED=%llu reproduces)\n", info->name,
           info->cc_major, info->cc_minor, info->sms, (unsigned long long)seed,
           (unsigned long long)seed);
}
