/* profile.h: the runner's side of the profile tests (profile.c). */
#ifndef GL_PROFILE_H
#define GL_PROFILE_H

/* From now on gl_profile only plans its run and ends the test. */
void gl_profile_begin_plan(void);

/* One Nsight Compute session (ncu: its path) over every planned run; then
 * gl_profile answers from it. */
void gl_profile_session(const char *ncu);

/* The last session's time, without its waits for the GPU. */
double gl_profile_session_seconds(void);

#endif
