// The part of wasmtime's C API (release 50, the shared library the `wasmtime` PyPI wheel ships)
// that the guest engine uses, declared by us: the wheel carries the library, not its headers.
// Struct layouts are those of that release; the build links that library by path (build.py).
#pragma once

#include <cstddef>
#include <cstdint>

extern "C" {

struct wasm_config_t;
struct wasm_engine_t;
struct wasm_trap_t;
struct wasm_valtype_t;
struct wasm_functype_t;
struct wasmtime_store_t;
struct wasmtime_context_t;
struct wasmtime_module_t;
struct wasmtime_linker_t;
struct wasmtime_error_t;
struct wasmtime_caller_t;

struct wasm_byte_vec_t {
  size_t size;
  char* data;
};
struct wasm_valtype_vec_t {
  size_t size;
  wasm_valtype_t** data;
};
enum : uint8_t { WASM_I32 = 0, WASM_I64 = 1, WASM_F32 = 2, WASM_F64 = 3 };
enum : uint8_t { WASMTIME_EXTERN_FUNC = 0, WASMTIME_EXTERN_GLOBAL = 1, WASMTIME_EXTERN_MEMORY = 3 };
enum : uint8_t { WASMTIME_I32 = 0 };

struct wasmtime_func_t {
  uint64_t store_id;
  void* priv;
};
struct wasmtime_memory_t {  // the release's nesting pads the inner pair to 16 bytes
  struct {
    uint64_t store_id;
    uint32_t priv1;
  } id;
  uint32_t priv2;
};
static_assert(sizeof(wasmtime_memory_t) == 24, "wasmtime_memory_t as release 50 lays it out");
struct wasmtime_global_t {
  uint64_t store_id;
  uint32_t priv1, priv2, priv3;
};
static_assert(sizeof(wasmtime_global_t) == 24, "wasmtime_global_t as release 50 lays it out");
struct wasmtime_val_t {  // a value's kind, then its union (references among its members: 24 bytes)
  uint8_t kind;
  union {
    int32_t i32;
    int64_t i64;
    uint8_t largest[24];
  } of;
};
static_assert(sizeof(wasmtime_val_t) == 32, "wasmtime_val_t as release 50 lays it out");
struct wasmtime_instance_t {
  uint64_t store_id;
  size_t priv;
};
struct wasmtime_extern_t {
  uint8_t kind;
  union {
    wasmtime_func_t func;
    wasmtime_global_t global;
    wasmtime_memory_t memory;
    uint8_t largest[24];
  } of;
};
static_assert(sizeof(wasmtime_extern_t) == 32, "wasmtime_extern_t as release 50 lays it out");
union wasmtime_val_raw_t {
  int32_t i32;
  int64_t i64;
  float f32;
  double f64;
  uint8_t v128[16];
  void* funcref;
};
using wasmtime_func_unchecked_callback_t = wasm_trap_t* (*)(void* env, wasmtime_caller_t* caller,
                                                            wasmtime_val_raw_t* args_and_results, size_t n);

wasm_config_t* wasm_config_new();
void wasmtime_config_consume_fuel_set(wasm_config_t*, bool);
void wasmtime_config_parallel_compilation_set(wasm_config_t*, bool);
void wasmtime_config_signals_based_traps_set(wasm_config_t*, bool);
void wasmtime_config_memory_init_cow_set(wasm_config_t*, bool);
void wasmtime_config_max_wasm_stack_set(wasm_config_t*, size_t);
void wasmtime_config_memory_reservation_set(wasm_config_t*, uint64_t);
void wasmtime_config_memory_reservation_for_growth_set(wasm_config_t*, uint64_t);
void wasmtime_config_memory_guard_size_set(wasm_config_t*, uint64_t);
void wasmtime_config_wasm_simd_set(wasm_config_t*, bool);
void wasmtime_config_wasm_relaxed_simd_set(wasm_config_t*, bool);
wasm_engine_t* wasm_engine_new_with_config(wasm_config_t*);
void wasm_engine_delete(wasm_engine_t*);

wasmtime_error_t* wasmtime_module_new(wasm_engine_t*, const uint8_t* wasm, size_t len, wasmtime_module_t** out);
wasmtime_error_t* wasmtime_module_serialize(wasmtime_module_t*, wasm_byte_vec_t* out);
wasmtime_error_t* wasmtime_module_deserialize(wasm_engine_t*, const uint8_t* bytes, size_t len,
                                              wasmtime_module_t** out);
void wasmtime_module_delete(wasmtime_module_t*);

wasmtime_store_t* wasmtime_store_new(wasm_engine_t*, void* data, void (*finalizer)(void*));
wasmtime_context_t* wasmtime_store_context(wasmtime_store_t*);
void wasmtime_store_limiter(wasmtime_store_t*, int64_t memory_size, int64_t table_elements, int64_t instances,
                            int64_t tables, int64_t memories);
void wasmtime_store_delete(wasmtime_store_t*);
wasmtime_error_t* wasmtime_context_set_fuel(wasmtime_context_t*, uint64_t fuel);
wasmtime_error_t* wasmtime_context_get_fuel(const wasmtime_context_t*, uint64_t* fuel);

wasm_valtype_t* wasm_valtype_new(uint8_t kind);
void wasm_valtype_vec_new(wasm_valtype_vec_t* out, size_t n, wasm_valtype_t* const data[]);
wasm_functype_t* wasm_functype_new(wasm_valtype_vec_t* params, wasm_valtype_vec_t* results);
void wasm_functype_delete(wasm_functype_t*);
const wasm_valtype_vec_t* wasm_functype_params(const wasm_functype_t*);
const wasm_valtype_vec_t* wasm_functype_results(const wasm_functype_t*);
uint8_t wasm_valtype_kind(const wasm_valtype_t*);

wasmtime_linker_t* wasmtime_linker_new(wasm_engine_t*);
void wasmtime_linker_delete(wasmtime_linker_t*);
wasmtime_error_t* wasmtime_linker_define_func_unchecked(wasmtime_linker_t*, const char* module, size_t module_len,
                                                        const char* name, size_t name_len, const wasm_functype_t* ty,
                                                        wasmtime_func_unchecked_callback_t cb, void* env,
                                                        void (*finalizer)(void*));
wasmtime_error_t* wasmtime_linker_instantiate(const wasmtime_linker_t*, wasmtime_context_t*, const wasmtime_module_t*,
                                              wasmtime_instance_t* out, wasm_trap_t** trap);
bool wasmtime_instance_export_get(wasmtime_context_t*, const wasmtime_instance_t*, const char* name, size_t len,
                                  wasmtime_extern_t* out);
wasm_functype_t* wasmtime_func_type(const wasmtime_context_t*, const wasmtime_func_t*);
wasmtime_error_t* wasmtime_func_call_unchecked(wasmtime_context_t*, const wasmtime_func_t*, wasmtime_val_raw_t* args,
                                               size_t n, wasm_trap_t** trap);
wasmtime_context_t* wasmtime_caller_context(wasmtime_caller_t*);
uint8_t* wasmtime_memory_data(const wasmtime_context_t*, const wasmtime_memory_t*);
size_t wasmtime_memory_data_size(const wasmtime_context_t*, const wasmtime_memory_t*);
void wasmtime_global_get(wasmtime_context_t*, const wasmtime_global_t*, wasmtime_val_t* out);

wasm_trap_t* wasmtime_trap_new(const char* message, size_t len);
void wasm_trap_message(const wasm_trap_t*, wasm_byte_vec_t* out);
void wasm_trap_delete(wasm_trap_t*);
void wasmtime_error_message(const wasmtime_error_t*, wasm_byte_vec_t* out);
void wasmtime_error_delete(wasmtime_error_t*);
void wasm_byte_vec_delete(wasm_byte_vec_t*);
}
