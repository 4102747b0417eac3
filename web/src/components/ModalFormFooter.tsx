// Transitional: the modal footer is part of the form layer (components/form); this file goes once
// its last importers take it from there.
export { ModalFormFooter } from './form';
