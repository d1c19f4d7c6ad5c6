// Linked into every candidate library (backends/common/ctors.py): runs the candidate's
// constructors, which the build moved out of .init_array into section cand_init, when the
// candidate process calls it (after its syscall filter reached the running stage).
extern "C" {
extern void (*const __start_cand_init[])() __attribute__((weak, visibility("hidden")));
extern void (*const __stop_cand_init[])() __attribute__((weak, visibility("hidden")));

__attribute__((visibility("default"))) void ascendc_sim_candidate_init() {
  for (auto* f = __start_cand_init; f != __stop_cand_init; ++f) (*f)();
}
}
