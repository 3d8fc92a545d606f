#### Tests: make test ########################################################
# Everything is built first (the other stages add what their tests need:
# `test: ...` in mk/qa.mk, tools/html.mk), then every test runs under pytest
# (pytest.ini, tests/conftest.py) on both cores; PYTEST_ARGS='-k NAME' runs a
# subset.  No test asserts a time: the budgets are in mk/bench.mk.
UNIT_TESTS := $(patsubst tests/unit/%.c,$(B)/tests/%,$(wildcard tests/unit/*.c))
$(B)/tests/%: tests/unit/%.c $(wildcard tests/unit/*.h) $(B)/libattn.a
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS) -std=gnu11 -O1 -g -Wall -Wextra -Werror -o $@ $< $(B)/libattn.a -lcriterion $(LDLIBS)

PYTEST_ARGS ?=
test: all debug $(UNIT_TESTS) check-tangle check-clang
	$(call msg,TEST,pytest -n 2 tests/)
	$(Q)$(PYTHON) -m pytest -n 2 --dist loadfile $(PYTEST_ARGS)

.PHONY: test
