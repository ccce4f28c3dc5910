/* judge.h: what the runner asks of the judge (judge.c, judge_subject.c, judge_calls.c:
 * judge_state.h says which part does what). */
#ifndef GL_JUDGE_H
#define GL_JUDGE_H

#include <stddef.h>

/* Opens the GPU, allocates the memory pool (pool_bytes and room for the lab's subjects
 * beside it; on a GPU too small for that, half of the free memory) and routes the lab's calls
 * (gl_exec). Returns 0; -1 with why when there is no usable GPU; -2 when the student's code
 * cannot be isolated here and allow_unisolated is 0; -3 when the GPU is there but busy or
 * its memory is held by other labs now (try again later). Only a GPU too small for the pool
 * gets a smaller one (half of what is free). */
int gl_judge_init(const char *submission, const char *baseline, const char *subject_exe,
                  size_t pool_bytes, int allow_unisolated, char *why, size_t len);

/* Once the student's file has compiled: its cubin and PTX, the code its kernels must come
 * from (before the student's first subject is started). */
void gl_judge_file_compiled(void);

/* Before gl_judge_init, without the GPU's lock: the lab's share of the GPU's memory among the
 * labs graded at once (its pool, its subjects and tools, the judge), held until it ends;
 * waits for the others. 0, or -1 and why when they kept it too long. */
int gl_judge_reserve_memory(size_t pool_bytes, char *why, size_t len);

/* Each test: its deadline, the whole pool; at its end, whether it broke
 * the subject (a fresh one is started for the next call). */
void gl_judge_test_begin(int timeout_s, const char *id);
void gl_judge_test_end(int broke);

/* The performance tests' plan (on 1), run before them: only the kit's baselines are timed
 * (a student's call ends the test, skipped), kept for the tests themselves (off 0): the
 * student's subject then lives through all of them, and the kit's through the plan. */
void gl_judge_plan(int on);

/* GL_TRACE: the subjects' starts (the runner says it, and the clock's, before
 * gl_judge_finish). */
void gl_judge_trace(void);
/* Ends the subject (its process group): the lab is done, or before the
 * kit's own code is timed. */
void gl_judge_finish(void);
void gl_judge_stop_subject(void);
/* Frees the pool and ends the judge's CUDA context (the last call of a lab). */
void gl_judge_release(void);
/* Starts a subject now (what: for the messages) if none runs. */
void gl_judge_start_subject(const char *what);
/* Starts the next subject's process, context and pool (kit: the kit's own, for the baselines)
 * without its file, which gl_judge_start_subject or the first call loads: the slow part of a
 * start, done while the lab does not hold the GPU's lock. Nothing if one is there. */
void gl_judge_prestart_subject(int kit);

/* Runs the next subjects through a program (argv_prefix, ended by NULL;
 * Nsight Compute), or directly again (NULL). Ends the current subject. */
void gl_judge_wrap_subject(const char *const *argv_prefix);


/* Asks the subject to quit and waits for it (or its wrapper) to exit;
 * returns the exit status, -1 if it had to be killed. */
int gl_judge_quit_and_wait(double timeout_s);

/* "landlock (ABI 7), seccomp, no_new_privs, pdeathsig, CUDA IPC ..." or a
 * line that starts with NOT ISOLATED. */
const char *gl_judge_protections(void);
int gl_judge_isolated(void);
int gl_judge_protections_known(void); /* a student's subject ran */
/* The same for the subjects that ran under Nsight Compute or compute-sanitizer
 * ("" if none did). */
const char *gl_judge_tool_protections(void);
int gl_judge_in_process(void);
/* The running subject records every route to the GPU (CUPTI), with the kernels it ran. */
int gl_judge_records_gpu(void);

/* ---- for the clock (clock.c) ---- */

/* A timed round of a student's launcher (student 1) or of the kit's; returns whether the
 * calls go to a subject (0: the student's code in this process, not isolated). */
int gl_judge_round_begin(int student);
enum { GL_ROUND_OFF, GL_ROUND_PREPARE, GL_ROUND_CALLS };
void gl_judge_round_phase(int phase);
/* The round's calls answered and the device idle: 1 when a student's subject ran them. */
int gl_judge_round_end(const char *what);
void gl_judge_round_record(const char *what); /* what the GPU ran, checked */
void gl_judge_round_done(void);
const char *gl_judge_round_launcher(void);
/* The current test's id; *baselines (if not NULL) gets its next baseline's number. */
const char *gl_judge_test_id(int *baselines);

#endif
