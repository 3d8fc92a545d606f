#### Tests: make test ########################################################
# Everything is built first (the other stages add what their tests need:
# `test: ...` in mk/qa.mk, mk/html.mk), then every test runs under pytest
# (pytest.ini, tests/conftest.py) on both cores; PYTEST_ARGS='-k NAME' runs a
# subset.  No test asserts a time: the budgets are in mk/bench.mk.
UNIT_TESTS := $(patsubst tests/unit/%.c,$(B)/tests/%,$(wildcard tests/unit/*.c))
$(B)/tests/%: tests/unit/%.c $(wildcard tests/unit/*.h) $(B)/libattn.a
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS) -std=gnu11 -O1 -g -Wall -Wextra -Werror -o $@ $< $(B)/libattn.a -lcriterion $(LDLIBS)

# The grader's tests share one build directory; its cache (the reference
# runs, the known wrong solutions' runs) is filled first, on both cores, so
# that no two tests build the same thing at once (the grader keeps what it
# has, so this takes a second when nothing changed).
#
# make test-all also runs what make test reports as skipped "part of the full
# sweep" (the second and later mutants of each exercise).
PYTEST_ARGS ?=
# What the tests need (the sanitizer builds, the unit tests, the HTML, the
# decks, the fuzz replayers) is built on every core, as build.sh builds the
# book: make -jN test still chooses N.
ifneq ($(filter test test-all,$(MAKECMDGOALS)),)
MAKEFLAGS += -j$(shell nproc)
endif
test: all debug $(UNIT_TESTS) check-tangle check-clang
	$(call msg,PREPARE,$(B)/test-grader/cache)
	$(Q)$(PYTHON) tools/grade.py --build $(B)/test-grader --prepare --jobs 2 >/dev/null
	$(call msg,TEST,pytest -n 2 tests/)
	$(Q)$(PYTHON) -m pytest -n 2 --dist loadfile $(PYTEST_ARGS)

test-all:
	$(Q)$(MAKE) --no-print-directory test ATTN_TEST_ALL=1

.PHONY: test test-all
