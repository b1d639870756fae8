"""Op classes for MLIR's upstream dialects: `plait.dialects.<name>`.

Each module holds one class per operation, generated at build time from the
dialect's own ODS definitions (`mlir-tblgen -gen-python-op-bindings`), plus the
hand-written conveniences of `_<name>_ops_ext.py`. The classes derive from
`plait.ir.OpView`; handles to operations of a dialect whose module was imported
come back as instances of its classes.
"""
