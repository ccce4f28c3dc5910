/* review.c: gl-review, the constructs in a student's file that its lab never
 * needs, with their line numbers (GRADING.md, rule 8). What it lists is "to
 * review" for the instructor, not a failure: the verdicts are the judge's.
 *
 *   gl-review [--header NAME] [--allow WORD,WORD] FILE.cu > review.txt
 *
 * One line a finding: LINE <TAB> WHAT <TAB> the source line, trimmed to 120
 * characters. WHAT is one of constructor, environment, file, process,
 * dynamic-loading, inline-assembly, stream-event, copy, synchronisation,
 * memory, library, include, timing. --allow takes WHATs, identifiers or header
 * names the lab needs (04: cudaMemcpyToSymbol), and may be given again;
 * --header names the lab's header. Comments and literals are blanked before matching (the line printed
 * is the original), names match as whole identifiers, and a name reached as a
 * member (x.open) is not the library function. Exit 0 once the file was read,
 * whatever it found; 2 when it cannot be read. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Each WHAT and its words: "name*" any name that starts so, "name(" only as a
 * call (a common word: a variable may be called open), "ns::" a namespace in
 * use, "std::x" only so qualified. Whole names win over prefixes, so
 * cudaStreamSynchronize is a synchronisation, not a stream. */
static const struct { const char *what, *words; } triggers[] = {
    {"environment", "getenv secure_getenv setenv unsetenv putenv clearenv environ __environ"},
    {"file", "fopen fopen64 freopen open( open64 openat openat64 creat creat64 unlink unlinkat "
             "remove( rename( renameat renameat2 mkdir mkdirat rmdir truncate( ftruncate "
             "symlink symlinkat link( linkat mkfifo mknod tmpfile mkstemp"},
    {"process", "fork vfork execl execle execlp execv execve execvp execvpe execveat fexecve "
                "system( popen posix_spawn* clone( clone3 setsid setpgid daemon( kill( tgkill "
                "pthread_kill raise( signal( sigaction ptrace prctl syscall pthread_create "
                "std::thread std::jthread std::async exit( _exit _Exit abort( quick_exit atexit "
                "at_quick_exit on_exit"},
    /* driver entry points are CUDA calls that no interposed symbol sees (rule 4) */
    {"dynamic-loading", "dlopen dlmopen dlsym dlvsym dladdr* dlinfo cudaGetDriverEntryPoint* "
                        "cuGetProcAddress*"},
    {"inline-assembly", "asm __asm__ __asm"},
    {"synchronisation", "cudaDeviceSynchronize cudaStreamSynchronize cudaDeviceReset cudaSetDevice "
                        "cudaSetDeviceFlags cudaDeviceSetLimit cudaDeviceSetCacheConfig "
                        "cudaDeviceSetSharedMemConfig cudaThreadSynchronize cudaThreadExit "
                        "cuCtxSynchronize"},
    {"stream-event", "cudaStream* cudaEvent* cudaGraph* cudaLaunch* cuLaunch* cuStream* cuEvent* "
                     "cuGraph* CUDA_API_PER_THREAD_DEFAULT_STREAM"},
    {"copy", "cudaMemcpy* cudaMemset* cudaMemPrefetchAsync cuMemcpy* cuMemset*"},
    {"memory", "cudaMalloc* cudaHostAlloc cudaHostRegister cudaFree* cuMemAlloc* cuMemFree* malloc "
               "calloc realloc aligned_alloc posix_memalign"},
    {"library", "cublas* cusparse* cufft* curand* cusolver* cudnn* thrust:: cub:: cutlass:: cute::"},
    {"timing", "clock_gettime gettimeofday time( timespec_get sleep( usleep nanosleep std::chrono "
               "std::this_thread __rdtsc"},
    {"constructor", "gnu::constructor gnu::destructor"},
    /* "": names the prefixes above would take, which are no finding (the kinds of a copy) */
    {"", "cudaMemcpyKind cudaMemcpyHostToHost cudaMemcpyHostToDevice cudaMemcpyDeviceToHost "
         "cudaMemcpyDeviceToDevice cudaMemcpyDefault"},
};

/* headers every lab may include, beside its own */
static const char *const plain_headers[] = {
    "cuda_runtime.h", "cooperative_groups.h", "cooperative_groups/reduce.h", "cuda_fp16.h",
    "stdio.h", "stdint.h", "stddef.h", "math.h", "float.h", "limits.h", "assert.h", "string.h",
    "cstdio", "cstdint", "cstddef", "cmath", "cfloat", "climits", "cassert", "cstring",
};
static const char *const library_headers[] = {"cublas", "cusparse", "cufft", "curand", "cusolver",
                                              "cudnn", "thrust/", "cub/", "cutlass/", "cute/"};

/* a string literal holding one of these is asm or an attribute at work */
static const struct { const char *text, *what; } literal_marks[] = {
    {"incbin", "inline-assembly"}, {"globaltimer", "timing"}, {"init_array", "constructor"},
    {"fini_array", "constructor"}, {".ctors", "constructor"}, {".dtors", "constructor"},
};

typedef struct {
    int line;
    size_t pos; /* in text: findings print in the order of the file */
    const char *what;
} finding;

static char *src;           /* the file as read */
static size_t src_len;
static char *text, *code;   /* lines spliced; and the same with comments and literals blanked */
static int *line_of;        /* the original line of each character of text and code */
static size_t len;
static finding *found;
static int nfound, capfound;
static const char *allow[16], *header; /* the --allow lists; the lab header's name */
static int nallow;

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define IDENT(c) (isalnum((unsigned char)(c)) || (c) == '_' || (c) == '$')

/* WORD is one of the comma-separated words of LIST */
static int listed(const char *list, const char *word, size_t n)
{
    while (list && *list) {
        size_t k = strcspn(list, ",");
        if (k == n && !strncmp(list, word, n))
            return 1;
        list += k + (list[k] == ',');
    }
    return 0;
}

static void add(size_t pos, const char *what, const char *word, size_t n)
{
    if (!*what)
        return;
    for (int a = 0; a < nallow; a++)
        if (listed(allow[a], what, strlen(what)) || listed(allow[a], word, n))
            return;
    if (nfound == capfound) {
        capfound = capfound ? 2 * capfound : 64;
        found = realloc(found, (size_t)capfound * sizeof *found);
        if (!found)
            exit(2);
    }
    found[nfound].line = line_of[pos];
    found[nfound].pos = pos;
    found[nfound++].what = what;
}

/* the identifier or pp-number ending just before position I of text */
static size_t token_before(size_t i)
{
    size_t j = i;
    while (j > 0 && IDENT(text[j - 1]))
        j--;
    return j;
}

static int raw_prefix(const char *p, size_t n)
{
    static const char *const raw[] = {"R", "LR", "uR", "UR", "u8R"};
    for (size_t k = 0; k < N(raw); k++)
        if (strlen(raw[k]) == n && !strncmp(p, raw[k], n))
            return 1;
    return 0;
}

static void check_literal(size_t from, size_t to)
{
    size_t i, k;
    for (k = 0; k < N(literal_marks); k++) {
        size_t m = strlen(literal_marks[k].text);
        for (i = from; i + m <= to; i++)
            if (!strncasecmp(text + i, literal_marks[k].text, m)) {
                add(from, literal_marks[k].what, literal_marks[k].text, m);
                break;
            }
    }
}

/* blank [from, to) of code, newlines kept so the lines stay where they were */
static void blank(size_t from, size_t to)
{
    for (; from < to && from < len; from++)
        if (code[from] != '\n')
            code[from] = ' ';
}

/* comments, string and character literals (raw strings too) become blanks */
static void strip(void)
{
    size_t i = 0, j, t;
    while (i < len) {
        char c = text[i];
        if (c == '/' && i + 1 < len && text[i + 1] == '/') {
            for (j = i; j < len && text[j] != '\n'; j++) {}
            blank(i, j);
            i = j;
        } else if (c == '/' && i + 1 < len && text[i + 1] == '*') {
            for (j = i + 2; j + 1 < len && !(text[j] == '*' && text[j + 1] == '/'); j++) {}
            j = j + 2 < len ? j + 2 : len;
            blank(i, j);
            i = j;
        } else if (c == '"') {
            t = token_before(i);
            if (raw_prefix(text + t, i - t)) { /* R"delim( ... )delim" */
                char end[20] = ")";
                size_t d = 0, k;
                while (i + 1 + d < len && text[i + 1 + d] != '(' && d < 16)
                    d++;
                memcpy(end + 1, text + i + 1, d);
                end[d + 1] = '"';
                end[d + 2] = '\0';
                for (j = i + 1, k = strlen(end); j + k <= len && strncmp(text + j, end, k); j++) {}
                j = j + k <= len ? j + k : len;
            } else {
                for (j = i + 1; j < len && text[j] != '"' && text[j] != '\n'; j++)
                    if (text[j] == '\\')
                        j++;
                j = j < len ? j + 1 : len;
            }
            check_literal(i, j);
            blank(i + 1, j - 1);
            i = j;
        } else if (c == '\'' && !isdigit((unsigned char)text[token_before(i)])) {
            /* a character literal; after a number it is a digit separator (1'000) */
            for (j = i + 1; j < len && text[j] != '\'' && text[j] != '\n'; j++)
                if (text[j] == '\\')
                    j++;
            j = j < len ? j + 1 : len;
            blank(i + 1, j - 1);
            i = j;
        } else
            i++;
    }
}

enum { CALL = 1 }; /* lookup's answer: the word counts only as a call */

/* the WHAT of NAME (n characters; "ns::x" when qualified; AS_NS: "::" follows) */
static const char *lookup(const char *name, size_t n, int as_ns, int *how)
{
    for (int pass = 0; pass < 2; pass++) /* whole names, then prefixes */
        for (size_t k = 0; k < N(triggers); k++)
            for (const char *w = triggers[k].words; *w;) {
                size_t m = strcspn(w, " "), base = m;
                char mark = m ? w[m - 1] : ' ';
                if (mark == '*' || mark == '(') {
                    base = m - 1;
                } else if (m > 2 && !strncmp(w + m - 2, "::", 2)) {
                    base = m - 2;
                    mark = ':';
                }
                if (pass == 0 ? (base == n && !strncmp(w, name, n) && mark != '*' &&
                                 (mark != ':' || as_ns))
                              : (mark == '*' && n >= base && !strncmp(w, name, base))) {
                    *how = mark == '(' ? CALL : 0;
                    return triggers[k].what;
                }
                w += m + (w[m] == ' ');
            }
    return NULL;
}

static size_t skip_space(size_t i)
{
    while (i < len && isspace((unsigned char)code[i]))
        i++;
    return i;
}

static size_t skip_blank(size_t i) /* spaces within the line */
{
    while (i < len && (code[i] == ' ' || code[i] == '\t' || code[i] == '\r'))
        i++;
    return i;
}

static size_t space_before(size_t i) /* the index after the last non-blank before i */
{
    while (i > 0 && isspace((unsigned char)code[i - 1]))
        i--;
    return i;
}

/* #include NAME: the lab's header and the plain ones pass; a library's is a library */
static size_t directive(size_t i)
{
    size_t at = i, n, j, k;
    const char *name, *what = "include";
    i = skip_blank(i + 1);
    for (n = 0; i + n < len && IDENT(code[i + n]); n++) {}
    if (!((n == 7 && !strncmp(code + i, "include", 7)) ||
          (n == 12 && !strncmp(code + i, "include_next", 12)) ||
          (n == 6 && !strncmp(code + i, "import", 6)) || (n == 5 && !strncmp(code + i, "embed", 5))))
        return i; /* any other directive: its words are read as code */
    j = skip_blank(i + n);
    name = text + j + 1; /* from text: a "header" is blanked in code */
    for (k = j + 1; k < len && text[k] != '\n' && text[k] != '>' && text[k] != '"'; k++) {}
    if (j >= len || (text[j] != '<' && text[j] != '"') || k >= len || text[k] == '\n') {
        name = text + j; /* computed: #include MACRO */
        for (k = j; k < len && text[k] != '\n'; k++) {}
    } else if (n == 7) {
        size_t m = (size_t)(text + k - name);
        if (header && strlen(header) == m && !strncmp(name, header, m))
            what = NULL;
        for (size_t h = 0; what && h < N(plain_headers); h++)
            if (strlen(plain_headers[h]) == m && !strncmp(name, plain_headers[h], m))
                what = NULL;
        for (size_t h = 0; what && h < N(library_headers); h++)
            if (!strncmp(name, library_headers[h], strlen(library_headers[h])))
                what = "library";
    }
    if (what)
        add(at, what, name, (size_t)(text + k - name));
    while (k < len && code[k] != '\n') /* the header's name is no code */
        k++;
    return k;
}

static void scan(void)
{
    size_t i = 0, j, b;
    int bol = 1, depth = 0, attr_pending = 0, attr_base = -1;
    while (i < len) {
        char c = code[i];
        if (c == '\n') {
            bol = 1;
            i++;
        } else if (isspace((unsigned char)c)) {
            i++;
        } else if (c == '#' && bol) {
            bol = 0;
            i = directive(i);
        } else if (isdigit((unsigned char)c) || (c == '.' && i + 1 < len && isdigit((unsigned char)code[i + 1]))) {
            for (j = i + 1; j < len && (IDENT(code[j]) || code[j] == '.' || code[j] == '\'' ||
                                       ((code[j] == '+' || code[j] == '-') &&
                                        code[j - 1] && strchr("eEpP", code[j - 1])));
                 j++) {}
            bol = 0;
            i = j;
        } else if (IDENT(c)) {
            const char *what = NULL;
            size_t n, after;
            int call, scoped = 0, how = 0;
            char qual[80];
            for (n = 0; i + n < len && IDENT(code[i + n]); n++) {}
            after = skip_space(i + n);
            call = after < len && code[after] == '(';
            b = space_before(i);
            bol = 0;
            attr_pending = 0; /* __attribute__ is followed by its parenthesis or by nothing */
            if (b > 0 && (code[b - 1] == '.' || (code[b - 1] == '>' && b > 1 && code[b - 2] == '-'))) {
                i += n; /* a member: x.open is not open() */
                continue;
            }
            if (b > 1 && code[b - 1] == ':' && code[b - 2] == ':') { /* std::thread */
                size_t e = space_before(b - 2), s = e;
                while (s > 0 && IDENT(code[s - 1]))
                    s--;
                scoped = 1;
                if (e > s && (e - s) + 2 + n < sizeof qual) {
                    snprintf(qual, sizeof qual, "%.*s::%.*s", (int)(e - s), code + s, (int)n, code + i);
                    what = lookup(qual, strlen(qual), 0, &how);
                }
            }
            if (!what)
                what = lookup(code + i, n,
                              after + 1 < len && code[after] == ':' && code[after + 1] == ':', &how);
            if (what && how == CALL && !call && !scoped && !(b > 0 && code[b - 1] == '&'))
                what = NULL; /* a common word, used as a name of the student's */
            if (what)
                add(i, what, code + i, n);
            if ((n == 13 && !strncmp(code + i, "__attribute__", 13)) ||
                (n == 11 && !strncmp(code + i, "__attribute", 11)))
                attr_pending = 1;
            else if (attr_base >= 0 && ((n == 11 && !strncmp(code + i, "constructor", 11)) ||
                                        (n == 10 && !strncmp(code + i, "destructor", 10)) ||
                                        (n == 15 && !strncmp(code + i, "__constructor__", 15)) ||
                                        (n == 14 && !strncmp(code + i, "__destructor__", 14))))
                add(i, "constructor", code + i, n);
            i += n;
        } else {
            if (c == '(') {
                if (attr_pending && attr_base < 0)
                    attr_base = depth; /* inside __attribute__((...)) until it closes */
                attr_pending = 0;
                depth++;
            } else if (c == ')' && depth > 0 && --depth == attr_base)
                attr_base = -1;
            bol = 0;
            i++;
        }
    }
}

static int in_order(const void *a, const void *b)
{
    const finding *x = a, *y = b;
    return (x->pos > y->pos) - (x->pos < y->pos);
}

/* LINE (from 1) of the original file, trimmed, tabs made spaces, at most 120 bytes
 * cut between characters */
static void print_line(int line)
{
    const char *p = src, *end = src + src_len, *e;
    size_t n;
    int l = 1;
    while (l < line && p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        p = nl ? nl + 1 : end;
        l++;
    }
    e = memchr(p, '\n', (size_t)(end - p));
    e = e ? e : end;
    while (p < e && isspace((unsigned char)*p))
        p++;
    while (e > p && isspace((unsigned char)e[-1]))
        e--;
    n = (size_t)(e - p);
    if (n > 120) {
        n = 120;
        while (n > 0 && ((unsigned char)p[n] & 0xC0) == 0x80)
            n--;
    }
    for (size_t k = 0; k < n; k++)
        putchar(p[k] == '\t' || p[k] == '\r' ? ' ' : p[k]);
    putchar('\n');
}

int main(int argc, char **argv)
{
    const char *path = NULL;
    FILE *f;
    size_t cap = 0, i, got;
    int line = 1, k;

    for (k = 1; k < argc; k++) {
        if (k + 1 < argc && !strcmp(argv[k], "--allow") && nallow < (int)N(allow))
            allow[nallow++] = argv[++k];
        else if (k + 1 < argc && !strcmp(argv[k], "--header")) {
            header = strrchr(argv[++k], '/'); /* labs/08-transpose/transpose.h will do */
            header = header ? header + 1 : argv[k];
        } else if (argv[k][0] == '-' || path) {
            fprintf(stderr, "usage: gl-review [--header NAME] [--allow WORD,WORD] FILE.cu\n");
            return 2;
        } else
            path = argv[k];
    }
    if (!path || !(f = fopen(path, "rb"))) {
        fprintf(stderr, "gl-review: cannot read %s\n", path ? path : "(no file given)");
        return 2;
    }
    do { /* the whole file, however long */
        cap = cap ? 2 * cap : 65536;
        if (!(src = realloc(src, cap + 1)))
            return 2;
        got = fread(src + src_len, 1, cap - src_len, f);
        src_len += got;
    } while (src_len == cap);
    if (ferror(f)) {
        fprintf(stderr, "gl-review: cannot read %s\n", path);
        fclose(f);
        return 2;
    }
    fclose(f);

    /* translation phase 2 first: get\<newline>env is getenv */
    text = malloc(src_len + 1);
    code = malloc(src_len + 1);
    line_of = malloc((src_len + 1) * sizeof *line_of);
    if (!text || !code || !line_of)
        return 2;
    for (i = 0; i < src_len; i++) {
        size_t s = i + 1 < src_len && src[i + 1] == '\r' ? 2 : 1;
        if (src[i] == '\\' && i + s < src_len && src[i + s] == '\n') {
            i += s;
            line++;
            continue;
        }
        line_of[len] = line;
        text[len++] = src[i];
        if (src[i] == '\n')
            line++;
    }
    text[len] = '\0';
    memcpy(code, text, len + 1);
    strip();
    scan();

    if (nfound)
        qsort(found, (size_t)nfound, sizeof *found, in_order);
    for (k = 0; k < nfound; k++) {
        int seen = 0;
        for (int j = k - 1; j >= 0 && found[j].line == found[k].line; j--)
            seen |= !strcmp(found[j].what, found[k].what); /* once a line and kind is enough */
        if (seen)
            continue;
        printf("%d\t%s\t", found[k].line, found[k].what);
        print_line(found[k].line);
    }
    return 0;
}
