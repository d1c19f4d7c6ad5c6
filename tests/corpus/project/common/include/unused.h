// No operator includes this header: the runner leaves it out of the package.
#error "an unused shared header must stay out of the package"
