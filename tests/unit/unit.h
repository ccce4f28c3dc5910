/* unit.h: the kit's own unit tests (make test-unit), one suite per file. */
#ifndef GL_UNIT_H
#define GL_UNIT_H
#include <check.h>
Suite *common_suite(void);
Suite *grader_suite(void);
Suite *fence_suite(void);
Suite *claims_suite(void);
#endif
