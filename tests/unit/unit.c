/* unit.c: runs the unit suites (no GPU needed), each test in its own process. */
#include "unit.h"

#include <stdlib.h>

int main(void)
{
    SRunner *sr = srunner_create(common_suite());
    int failed;
    srunner_add_suite(sr, grader_suite());
    srunner_add_suite(sr, fence_suite());
    srunner_add_suite(sr, claims_suite());
    srunner_set_fork_status(sr, CK_FORK);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
