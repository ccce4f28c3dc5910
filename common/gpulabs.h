/* gpulabs.h: the kit's C library, one header per concern. */
#ifndef GPULABS_H
#define GPULABS_H
#include "gl_buffer.h"
#include "gl_check.h"
#include "gl_compare.h"
#include "gl_delay.h"
#include "gl_device_data.h"
#include "gl_demo.h"
#include "gl_device.h"
#include "gl_exec.h"
#include "gl_matmul.h"
#include "gl_problem.h"
#include "gl_random.h"
#include "gl_table.h"
#include "gl_timing.h"
#endif
