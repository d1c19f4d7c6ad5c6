#error "a unit-test stub is not a kernel launch's header"
