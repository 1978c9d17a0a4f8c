/* tree.h - gives each tree's symbols their own prefix.
 *
 * solutions/ and exercises/ define the same functions (pi_scalar, ...). The
 * participant's runner links both trees to time them side by side in one
 * process, so each tree library is compiled with -DSPEEDLAB_TREE=<tree> and
 * the kernel headers map every public name through SL_TREE_SYMBOL: the code
 * a participant reads and writes still says pi_scalar.
 */
#ifndef SPEEDLAB_TREE_H
#define SPEEDLAB_TREE_H

#ifndef SPEEDLAB_TREE
#error "compile tree code with -DSPEEDLAB_TREE=<tree name> (CMake does this)"
#endif

#define SL_PASTE_(a, b) a##_##b
#define SL_PASTE(a, b) SL_PASTE_(a, b)
#define SL_TREE_SYMBOL(name) SL_PASTE(SPEEDLAB_TREE, name)

#endif
