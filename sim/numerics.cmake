# The simulator's header-only numeric layer (sim/include/ascend_sim/numerics/).
# Included from sim/CMakeLists.txt. Consumers get -ffp-contract=off so that a
# Mul followed by an Add (Axpy, polynomial steps, kernel scalar code) rounds
# twice, as separate vector instructions do, instead of being fused into FMA.
add_library(ascend_xent_sim_numerics INTERFACE)
target_include_directories(ascend_xent_sim_numerics INTERFACE ${CMAKE_CURRENT_LIST_DIR}/include)
target_compile_features(ascend_xent_sim_numerics INTERFACE cxx_std_17)
target_compile_options(ascend_xent_sim_numerics INTERFACE
  $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<OR:$<CXX_COMPILER_ID:GNU>,$<CXX_COMPILER_ID:Clang>>>:-ffp-contract=off>)
