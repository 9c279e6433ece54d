"""episode"""
